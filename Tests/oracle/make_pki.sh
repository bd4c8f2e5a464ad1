#!/usr/bin/env bash
# make_pki.sh OUTDIR [--curve P-256|P-384|P-521|RSA|RSA-PSS|ED25519] [--intermediates 1|2]
#             [--leaf-days N | --leaf-expired] [--tsa]
#
# --curve names the key type of every certificate: an EC curve, RSA 2048 (rsaEncryption keys,
# for PS256/384/512 signatures), RSA-PSS 2048 (id-RSASSA-PSS keys) or Ed25519.
# Test PKI in the profile c2pa-rs 0.91.x accepts for claim signing:
#   root      CA:TRUE (critical), keyCertSign+cRLSign (critical), SKI, AKI
#   inter(s)  CA:TRUE pathlen (critical), keyCertSign+cRLSign (critical), SKI, AKI
#   leaf      CA:FALSE (critical), KU digitalSignature (critical),
#             EKU emailProtection + documentSigning + c2pa-kp-claimSigning,
#             SKI, AKI, subject with O=
# (emailProtection is needed: the 0.91.3 reader rejects a leaf whose only EKUs are
#  documentSigning / c2pa-kp-claimSigning.)
#
# Writes into OUTDIR:
#   root.pem   trust anchor
#   leaf.pem   signer certificate          leaf.pk8  its key, PKCS#8 PEM
#   chain.pem  leaf, then intermediates (nearest first), no root  (= COSE x5chain)
#   other.pem  an unrelated self-signed root (for "untrusted" tests), other.key
#   inter1.pem [inter2.pem], *.key
# --leaf-expired: the leaf was valid from 3 days ago until yesterday (openssl ca
# -startdate/-enddate; OpenSSL 3.0's `x509 -req` cannot set dates).
set -euo pipefail

usage() { echo "usage: $0 OUTDIR [--curve P-256|P-384|P-521|RSA|RSA-PSS|ED25519] [--intermediates 1|2] [--leaf-days N | --leaf-expired] [--tsa]" >&2; exit 2; }

[ $# -ge 1 ] || usage
OUT=$1; shift
CURVE=P-256; NINTER=1; LEAF_DAYS=365; EXPIRED=0
while [ $# -gt 0 ]; do
  case "$1" in
    --curve) CURVE=${2:-}; shift 2 ;;
    --intermediates) NINTER=${2:-}; shift 2 ;;
    --leaf-days) LEAF_DAYS=${2:-}; shift 2 ;;
    --leaf-expired) EXPIRED=1; shift ;;
    *) usage ;;
  esac
done
# KEYGEN: openssl genpkey arguments; MD: the certificate signature digest flag (none for Ed25519).
case "$CURVE" in
  P-256) KEYGEN=(-algorithm EC -pkeyopt ec_paramgen_curve:prime256v1); MD=(-sha256); CAMD=(-md sha256) ;;
  P-384) KEYGEN=(-algorithm EC -pkeyopt ec_paramgen_curve:secp384r1);  MD=(-sha384); CAMD=(-md sha384) ;;
  P-521) KEYGEN=(-algorithm EC -pkeyopt ec_paramgen_curve:secp521r1);  MD=(-sha512); CAMD=(-md sha512) ;;
  RSA) KEYGEN=(-algorithm RSA -pkeyopt rsa_keygen_bits:2048); MD=(-sha256); CAMD=(-md sha256) ;;
  RSA-PSS) KEYGEN=(-algorithm RSA-PSS -pkeyopt rsa_keygen_bits:2048)  # c2pa-rs trusts PSS certificate signatures
           MD=(-sha256 -sigopt rsa_pss_saltlen:digest); CAMD=(-md sha256 -sigopt rsa_pss_saltlen:digest) ;;  # only with salt = digest
  ED25519) KEYGEN=(-algorithm ED25519); MD=(); CAMD=() ;;
  *) echo "make_pki.sh: unsupported curve $CURVE" >&2; exit 2 ;;
esac
case "$NINTER" in 1|2) ;; *) echo "make_pki.sh: --intermediates must be 1 or 2" >&2; exit 2 ;; esac
[[ "$LEAF_DAYS" =~ ^[0-9]+$ ]] || usage

mkdir -p "$OUT"
cd "$OUT"

cat > pki.cnf <<'EOF'
[ req ]
distinguished_name = dn
prompt             = no
[ dn ]
CN = placeholder

[ v3_root ]
basicConstraints       = critical, CA:TRUE
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always

[ v3_inter1 ]
basicConstraints       = critical, CA:TRUE, pathlen:1
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always

[ v3_inter0 ]
basicConstraints       = critical, CA:TRUE, pathlen:0
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always

[ v3_leaf ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
# emailProtection, documentSigning (RFC 9336), c2pa-kp-claimSigning
extendedKeyUsage       = emailProtection, 1.3.6.1.5.5.7.3.36, 1.3.6.1.4.1.62558.2.1
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always

# used only for --leaf-expired (openssl ca can set explicit dates)
[ ca ]
default_ca = leafca
[ leafca ]
database        = ca.db/index.txt
new_certs_dir   = ca.db
serial          = ca.db/serial
default_md      = default
policy          = policy_any
preserve        = yes
unique_subject  = no
copy_extensions = none
[ policy_any ]
countryName            = optional
organizationName       = supplied
organizationalUnitName = optional
commonName             = supplied
EOF

q() { "$@" >/dev/null 2>openssl.err || { cat openssl.err >&2; echo "make_pki.sh: failed: $*" >&2; exit 1; }; }

genkey() { q openssl genpkey "${KEYGEN[@]}" -out "$1"; }

# self-signed CA: name key subject
selfsigned() {
  genkey "$1.key"
  q openssl req -new -x509 "${MD[@]}" -key "$1.key" -days 3650 -subj "$2" \
    -config pki.cnf -extensions v3_root -out "$1.pem"
}

# issue: name issuer subject ext days
issue() {
  genkey "$1.key"
  q openssl req -new "${MD[@]}" -key "$1.key" -subj "$3" -config pki.cnf -out "$1.csr"
  q openssl x509 -req "${MD[@]}" -in "$1.csr" -CA "$2.pem" -CAkey "$2.key" \
    -set_serial "0x$(openssl rand -hex 12)" -days "$5" \
    -extfile pki.cnf -extensions "$4" -out "$1.pem"
  rm -f "$1.csr"
}

selfsigned root  "/C=US/O=Lensd Test/OU=Test PKI/CN=Lensd Test Root CA"
selfsigned other "/C=US/O=Unrelated Test/OU=Test PKI/CN=Unrelated Root CA"

if [ "$NINTER" = 2 ]; then
  issue inter1 root   "/C=US/O=Lensd Test/OU=Test PKI/CN=Lensd Test Intermediate CA 1" v3_inter1 1825
  issue inter2 inter1 "/C=US/O=Lensd Test/OU=Test PKI/CN=Lensd Test Intermediate CA 2" v3_inter0 1825
  ISSUER=inter2; INTERS="inter2.pem inter1.pem"
else
  issue inter1 root   "/C=US/O=Lensd Test/OU=Test PKI/CN=Lensd Test Intermediate CA" v3_inter0 1825
  ISSUER=inter1; INTERS="inter1.pem"
fi

LEAF_SUBJ="/C=US/O=Lensd Test/OU=Devices/CN=lensd test signer"
if [ "$EXPIRED" = 1 ]; then
  genkey leaf.key
  q openssl req -new "${MD[@]}" -key leaf.key -subj "$LEAF_SUBJ" -config pki.cnf -out leaf.csr
  rm -rf ca.db; mkdir ca.db; : > ca.db/index.txt; openssl rand -hex 12 > ca.db/serial
  start=$(date -u -d '3 days ago' +%Y%m%d%H%M%SZ)
  end=$(date -u -d '1 day ago' +%Y%m%d%H%M%SZ)
  q openssl ca -batch -notext -config pki.cnf "${CAMD[@]}" -cert "$ISSUER.pem" -keyfile "$ISSUER.key" \
    -startdate "$start" -enddate "$end" -extfile pki.cnf -extensions v3_leaf \
    -in leaf.csr -out leaf.pem
  rm -rf ca.db leaf.csr
else
  issue leaf "$ISSUER" "$LEAF_SUBJ" v3_leaf "$LEAF_DAYS"
fi

q openssl pkcs8 -topk8 -nocrypt -in leaf.key -out leaf.pk8
# shellcheck disable=SC2086
cat leaf.pem $INTERS > chain.pem
rm -f openssl.err

# sanity: the chain builds (ignoring time for the expired variant)
# shellcheck disable=SC2086
cat $INTERS > untrusted.pem
if [ "$EXPIRED" = 1 ]; then vflags=(-no_check_time); else vflags=(); fi
openssl verify "${vflags[@]}" -x509_strict -CAfile root.pem -untrusted untrusted.pem leaf.pem >/dev/null \
  || { echo "make_pki.sh: generated chain does not verify" >&2; exit 1; }
rm -f untrusted.pem
echo "$OUT"
