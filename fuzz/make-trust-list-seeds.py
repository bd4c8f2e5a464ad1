#!/usr/bin/env python3
"""make-trust-list-seeds.py DIR - seed inputs for fuzz-trust-list, made up here (no copy of an
official list): an ETSI TS 119 602 LoTE list in the shape the C2PA Trust List is published in
(two entities, a service withdrawn after a trusted period in its ServiceHistory), a PEM bundle
with the lists' "Subject" lines, c2pa-rs trust settings in TOML and in JSON, and malformed
variants (a bad certificate, a bad date, a missing TEName, an unterminated TOML string).
Needs the project venv (cryptography)."""
import base64
import datetime
import json
import os
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def certificate(name):
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "US"), x509.NameAttribute(NameOID.ORGANIZATION_NAME, name),
                         x509.NameAttribute(NameOID.COMMON_NAME, f"{name} Root")])
    now = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    return (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now).not_valid_after(now + datetime.timedelta(days=3650))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True).sign(key, hashes.SHA256()))


def service(name, cert, statuses):
    val = base64.b64encode(cert.public_bytes(serialization.Encoding.DER)).decode()
    identity = {"X509Certificates": [{"val": val}]}
    info = {"ServiceName": [{"lang": "en", "value": f"{name} Issuing CA"}], "ServiceDigitalIdentity": identity}
    current = statuses[-1]
    info.update({"ServiceStatus": f"http://c2pa.org/conformance/trust-list/{current[0]}", "StatusStartingTime": current[1]})
    entry = {"ServiceInformation": info}
    if len(statuses) > 1:
        entry["ServiceHistory"] = [{"ServiceName": info["ServiceName"], "ServiceDigitalIdentity": identity,
                                    "ServiceStatus": f"http://c2pa.org/conformance/trust-list/{s}", "StatusStartingTime": t}
                                   for s, t in statuses[:-1]]
    return entry


def entity(name, services):
    return {"TrustedEntityInformation": {
        "TEName": [{"lang": "en", "value": name}],
        "TEAddress": {"TEPostalAddress": [{"lang": "en", "StreetAddress": "1 Street", "Country": "US"}],
                      "TEElectronicAddress": [{"lang": "en", "uriValue": "mailto:ca@example.invalid"}]},
        "TEInformationURI": [{"lang": "en", "uriValue": "https://example.invalid"}]},
        "TrustedEntityServices": services}


def main(out):
    os.makedirs(out, exist_ok=True)
    a, b = certificate("Example CA"), certificate("Other CA")
    lote = {"LoTE": {
        "ListAndSchemeInformation": {"LoTEVersionIdentifier": 1, "LoTESequenceNumber": 1,
                                     "SchemeName": [{"lang": "en", "value": "Example Trust List"}],
                                     "SchemeOperatorName": [{"lang": "en", "value": "Example Operator"}],
                                     "ListIssueDateTime": "2026-08-05T00:11:39Z", "NextUpdate": "2027-08-05T00:11:39Z"},
        "TrustedEntitiesList": [
            entity("Example CA", [service("Example CA", a, [("trusted", "2026-01-01T00:00:00Z")])]),
            entity("Other CA", [service("Other CA", b, [("trusted", "2026-01-01T00:00:00Z"), ("untrusted", "2026-06-01T00:00:00.5+02:00")])]),
        ]}}
    text = json.dumps(lote, indent=1)
    pem = "".join(f"Subject\tCN={n} Root, O={n}, C=US\n" + c.public_bytes(serialization.Encoding.PEM).decode() + "\n"
                  for n, c in (("Example CA", a), ("Other CA", b)))
    seeds = {
        "lote.json": text,
        "lote-bad-certificate.json": text.replace('"val": "', '"val": "AAAA', 1),
        "lote-bad-date.json": text.replace("2027-08-05T00:11:39Z", "soon"),
        "lote-no-tename.json": text.replace('"TEName"', '"TENames"', 1),
        "bundle.pem": pem,
        "settings.toml": "version = 1\n[trust]\ntrust_anchors = \"\"\"\n" + pem + "\"\"\"\ntrust_config = '''\n1.3.6.1.5.5.7.3.36\n'''\n"
                         "allowed_list = \"" + base64.b64encode(bytes(32)).decode() + "\"\n[verify]\nverify_trust = true\n",
        "settings.json": json.dumps({"trust": {"trust_anchors": pem.replace("\n", "\\n"), "trust_config": "1.3.6.1.4.1.62558.2.1"}}),
        "settings-unterminated.toml": "[trust]\ntrust_anchors = \"-----BEGIN\n",
    }
    for name, content in seeds.items():
        with open(os.path.join(out, name), "w") as f:
            f.write(content)


if __name__ == "__main__":
    main(sys.argv[1])
