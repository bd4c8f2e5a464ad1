"""tpm_evidence.py - the EST stand-in's verifier of TPM key evidence in a certificate request.

A request carries it as the attestation attribute of draft-ietf-lamps-csr-attestation (the
editors' copy after -18: id-aa-evidence 1.2.840.113549.1.9.16.2.59, one EvidenceBundle), with one
tcg-attest-tpm-certify (2.23.133.20.1) statement, TcgAttestCertify {tpmSAttest, signature,
keyPubArea}, and in `certs` the attestation key's certificate (and the TPM's EK certificate).
`verify(request_der, ek_roots)` returns None when the evidence proves the request's key was made
in a TPM whose maker's CA is among `ek_roots` (certificates), else why not:

  - an AK certificate (extendedKeyUsage tcg-kp-AIKCertificate 2.23.133.8.3, not a CA) is issued
    by one of ek_roots (or by a certificate in `certs` that is): the maker vouches that the key
    is a restricted signing key of the TPM that holds its EK;
  - the TPMS_ATTEST is a TPM-made (magic TPM_GENERATED) TPM_ST_ATTEST_CERTIFY, and its ECDSA
    signature verifies with the AK certificate's key;
  - the certified name is nameAlg || H(keyPubArea), and keyPubArea is an ECC key with
    fixedTPM, fixedParent and sensitiveDataOrigin whose point is the request's public key.

The TPM structures are parsed here with struct, from the TPM 2.0 Library, Part 2.
"""
import hashlib
import struct

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, utils

EVIDENCE_ATTRIBUTE = "1.2.840.113549.1.9.16.2.59"
AK_CERTIFICATE_USAGE = x509.ObjectIdentifier("2.23.133.8.3")
TPM_CERTIFY_STATEMENT = "2.23.133.20.1"
TPM_GENERATED = 0xFF544347
ST_ATTEST_CERTIFY = 0x8017
ALG_ECC, ALG_ECDSA, ALG_NULL = 0x0023, 0x0018, 0x0010
HASHES = {0x000B: (hashlib.sha256, hashes.SHA256), 0x000C: (hashlib.sha384, hashes.SHA384),
          0x000D: (hashlib.sha512, hashes.SHA512)}
FIXED_TPM, FIXED_PARENT, SENSITIVE_DATA_ORIGIN = 0x2, 0x10, 0x20


class Refused(Exception):
    pass


def der_elements(data):
    """The (tag, contents, whole encoding) of each DER element in `data`, in order."""
    out, i = [], 0
    while i < len(data):
        start = i
        if i + 2 > len(data):
            raise Refused("truncated DER")
        tag, length = data[i], data[i + 1]
        i += 2
        if length & 0x80:
            count = length & 0x7F
            if count == 0 or count > 4 or i + count > len(data):
                raise Refused("bad DER length")
            length = int.from_bytes(data[i:i + count], "big")
            i += count
        if i + length > len(data):
            raise Refused("truncated DER")
        out.append((tag, data[i:i + length], data[start:i + length]))
        i += length
    return out


def der_oid(contents):
    arcs, value = [], 0
    for byte in contents:
        value = value << 7 | byte & 0x7F
        if not byte & 0x80:
            arcs.append(value)
            value = 0
    first = min(arcs[0] // 40, 2)
    return ".".join(str(a) for a in [first, arcs[0] - 40 * first] + arcs[1:])


def evidence_bundle(request_der):
    """The attestation attribute's value (the EvidenceBundle's contents), or None."""
    (tag, request, _), = der_elements(request_der)
    info = der_elements(der_elements(request)[0][1])
    for tag, attributes, _ in info:
        if tag != 0xA0:
            continue
        for _, attribute, _ in der_elements(attributes):
            (_, oid, _), (_, values, _) = der_elements(attribute)
            if der_oid(oid) == EVIDENCE_ATTRIBUTE:
                (_, bundle, _), = der_elements(values)
                return bundle
    return None


class Reader:
    """TPM 2.0 marshaled structures: big-endian integers, TPM2B = 2-byte size + bytes."""

    def __init__(self, data):
        self.data, self.i = data, 0

    def take(self, n):
        if self.i + n > len(self.data):
            raise Refused("truncated TPM structure")
        self.i += n
        return self.data[self.i - n:self.i]

    def u16(self):
        return struct.unpack(">H", self.take(2))[0]

    def u32(self):
        return struct.unpack(">I", self.take(4))[0]

    def sized(self):
        return self.take(self.u16())


def ecc_public_area(area):
    """(nameAlg, attributes, x, y) of a TPMT_PUBLIC of an ECC key."""
    r = Reader(area)
    if r.u16() != ALG_ECC:
        raise Refused("the certified key is not an ECC key")
    name_alg, attributes = r.u16(), r.u32()
    r.sized()  # authPolicy
    if r.u16() != ALG_NULL:  # symmetric: keyBits, mode
        r.take(4)
    if r.u16() != ALG_NULL:  # scheme: its hash
        r.take(2)
    r.u16()  # curveID
    if r.u16() != ALG_NULL:  # kdf: its hash
        r.take(2)
    x, y = r.sized(), r.sized()
    if r.i != len(area):
        raise Refused("trailing bytes after the certified key's public area")
    return name_alg, attributes, x, y


def certified_name(attest):
    """The name a TPMS_ATTEST of TPM2_Certify certifies."""
    r = Reader(attest)
    if r.u32() != TPM_GENERATED:
        raise Refused("the attestation is not TPM-generated (magic)")
    if r.u16() != ST_ATTEST_CERTIFY:
        raise Refused("the attestation is not a TPM2_Certify")
    r.sized()  # qualifiedSigner
    r.sized()  # extraData
    r.take(17 + 8)  # clockInfo, firmwareVersion
    name = r.sized()
    r.sized()  # qualifiedName
    if r.i != len(attest):
        raise Refused("trailing bytes after the attestation")
    return name


def ecdsa_signature(signature):
    """(hash class, DER signature) of a marshaled TPMT_SIGNATURE of ECDSA."""
    r = Reader(signature)
    if r.u16() != ALG_ECDSA:
        raise Refused("the attestation's signature is not ECDSA")
    hash_alg = r.u16()
    if hash_alg not in HASHES:
        raise Refused("the attestation's signature uses an unknown hash")
    sig_r, sig_s = r.sized(), r.sized()
    if r.i != len(signature):
        raise Refused("trailing bytes after the attestation's signature")
    return HASHES[hash_alg][1], utils.encode_dss_signature(int.from_bytes(sig_r, "big"), int.from_bytes(sig_s, "big"))


def is_ak_certificate(certificate):
    try:
        usages = certificate.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
        constraints = certificate.extensions.get_extension_for_class(x509.BasicConstraints).value
    except x509.ExtensionNotFound:
        return False
    return AK_CERTIFICATE_USAGE in usages and not constraints.ca


def chains_to(certificate, others, roots):
    for issuer in roots + others:
        if issuer == certificate:
            continue
        try:
            certificate.verify_directly_issued_by(issuer)
        except Exception:  # another issuer's name, key type or signature
            continue
        if issuer in roots or chains_to(issuer, [c for c in others if c != issuer], roots):
            return True
    return False


def verify(request_der, ek_roots):
    """None when the request's TPM evidence verifies against `ek_roots`, else why not."""
    try:
        bundle = evidence_bundle(request_der)
        if bundle is None:
            return "the request carries no attestation evidence"
        parts = der_elements(bundle)
        if len(parts) != 2:
            return "the evidence bundle carries no certificates"
        (_, statements, _), (_, certificates, _) = parts
        (_, statement, _), = der_elements(statements)
        (_, oid, _), (_, tcg, _) = der_elements(statement)
        if der_oid(oid) != TPM_CERTIFY_STATEMENT:
            return f"unknown evidence statement {der_oid(oid)}"
        attest, signature, key_area = (contents for _, contents, _ in der_elements(tcg))
        certs = [x509.load_der_x509_certificate(whole) for _, _, whole in der_elements(certificates)]
        request = x509.load_der_x509_csr(request_der)
        for ak in certs:
            if is_ak_certificate(ak) and chains_to(ak, certs, ek_roots):
                break
        else:
            return "no AK certificate in the evidence leads to the TPM maker's CA"
        hash_class, der_signature = ecdsa_signature(signature)
        try:
            ak.public_key().verify(der_signature, attest, ec.ECDSA(hash_class()))
        except Exception:
            return "the attestation's signature does not verify with the attestation key"
        name_alg, attributes, x, y = ecc_public_area(key_area)
        if name_alg not in HASHES:
            return "the certified key's name algorithm is unknown"
        if certified_name(attest) != struct.pack(">H", name_alg) + HASHES[name_alg][0](key_area).digest():
            return "the attestation certifies another key"
        wanted = FIXED_TPM | FIXED_PARENT | SENSITIVE_DATA_ORIGIN
        if attributes & wanted != wanted:
            return "the certified key may leave the TPM or was not made in it"
        numbers = request.public_key().public_numbers()
        size = (numbers.curve.key_size + 7) // 8
        if (x, y) != (numbers.x.to_bytes(size, "big"), numbers.y.to_bytes(size, "big")):
            return "the certified key is not the request's key"
        return None
    except (Refused, ValueError, IndexError) as error:
        return f"malformed evidence: {error}"
