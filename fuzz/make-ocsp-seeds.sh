#!/usr/bin/env bash
# fuzz/make-ocsp-seeds.sh - regenerates the named seeds of fuzz-ocsp (and a stapled-OCSP JPEG for
# fuzz-jpeg / fuzz-cose / fuzz-cbor via extract-seeds.py) with `openssl ocsp` answering from a
# real `openssl ca` index, as Tests/LensTestSupport/OrganizationCA.swift does: good, revoked,
# unknown, no certificates, SHA-256 CertID, signed by the CA itself, a stranger's responder,
# truncated. fuzz-ocsp input: u16 BE length + certificate DER, u16 BE length + issuer DER, response DER.
# Needs the venv of scripts/setup (extract-seeds.py, make_jpeg.py); keys are fresh on every run.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PY="$ROOT/.venv/bin/python"
CORPUS="$ROOT/fuzz/corpus"
[ -x "$PY" ] || { echo "make-ocsp-seeds: $PY missing: run scripts/setup first" >&2; exit 1; }
TMP=$(mktemp -d /tmp/lensd-ocsp-seeds.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"

# A CA (root, P-256) with an index, a C2PA leaf, a second leaf to revoke, and a delegated responder.
ca() {  # ca DIR NAME
  mkdir -p "$1" && : >"$1/index.txt" && echo 1000 >"$1/serial"
  cat >"$1/ca.cnf" <<CNF
[ca]
default_ca = org
[org]
dir = $1
database = \$dir/index.txt
serial = \$dir/serial
new_certs_dir = \$dir
certificate = \$dir/root.pem
private_key = \$dir/root.key
default_md = sha256
default_days = 365
policy = anything
unique_subject = no
[anything]
commonName = supplied
[leaf]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = emailProtection
authorityKeyIdentifier = keyid:always
[responder]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = OCSPSigning
authorityKeyIdentifier = keyid:always
[root]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
CNF
  openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$1/root.key" -out "$1/root.pem" \
    -days 3650 -subj "/CN=$2 Root" -config "$1/ca.cnf" -extensions root 2>/dev/null
}
issue() {  # issue DIR NAME EXTENSIONS
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$1/$2.key" -out "$1/$2.csr" -subj "/CN=$2" 2>/dev/null
  openssl ca -batch -notext -config "$1/ca.cnf" -extensions "$3" -in "$1/$2.csr" -out "$1/$2.pem" 2>/dev/null
}
ca "$TMP/org" Org; ca "$TMP/stranger" Stranger
issue "$TMP/org" cam leaf; issue "$TMP/org" gone leaf; issue "$TMP/org" responder responder
issue "$TMP/stranger" responder responder
openssl ca -config "$TMP/org/ca.cnf" -revoke "$TMP/org/gone.pem" -crl_reason keyCompromise 2>/dev/null

mkdir -p "$CORPUS/fuzz-ocsp"
seed() {  # seed NAME CERT RESPONSE: the fuzz-ocsp layout
  "$PY" - "$CORPUS/fuzz-ocsp/$1.bin" "$2" "$TMP/org/root.pem" "$3" <<'PY'
import ssl, struct, sys
out, cert, issuer, response = sys.argv[1:]
der = lambda p: ssl.PEM_cert_to_DER_cert(open(p).read())
parts = [der(cert), der(issuer)]
with open(out, "wb") as f:
    for p in parts:
        f.write(struct.pack(">H", len(p)) + p)
    f.write(open(response, "rb").read())
PY
}
answer() {  # answer NAME CERT [openssl ocsp options...]: a response from the org's index
  openssl ocsp -issuer "$TMP/org/root.pem" "${extra_request[@]}" -cert "$2" -reqout "$TMP/$1.req" 2>/dev/null
  openssl ocsp -index "$TMP/org/index.txt" -CA "$TMP/org/root.pem" -reqin "$TMP/$1.req" -respout "$TMP/$1.der" \
    -nmin 60 "${@:3}" 2>/dev/null
  seed "$1" "$2" "$TMP/$1.der"
}
delegated=(-rsigner "$TMP/org/responder.pem" -rkey "$TMP/org/responder.key")
extra_request=()  # before -cert: a digest applies to the certificates after it
answer good "$TMP/org/cam.pem" "${delegated[@]}"
answer revoked "$TMP/org/gone.pem" "${delegated[@]}"
answer no-certificates "$TMP/org/cam.pem" "${delegated[@]}" -resp_no_certs
answer signed-by-ca "$TMP/org/cam.pem" -rsigner "$TMP/org/root.pem" -rkey "$TMP/org/root.key"
answer stranger-responder "$TMP/org/cam.pem" -rsigner "$TMP/stranger/responder.pem" -rkey "$TMP/stranger/responder.key"
answer responder-by-key-id "$TMP/org/cam.pem" "${delegated[@]}" -resp_key_id
extra_request=(-sha256)
answer sha256-certid "$TMP/org/cam.pem" "${delegated[@]}"
extra_request=()
# unknown: a certificate of another CA the org's responder does not know.
openssl ocsp -issuer "$TMP/stranger/root.pem" -cert "$TMP/stranger/responder.pem" -reqout "$TMP/unknown.req" 2>/dev/null
openssl ocsp -index "$TMP/org/index.txt" -CA "$TMP/stranger/root.pem" -reqin "$TMP/unknown.req" -respout "$TMP/unknown.der" \
  "${delegated[@]}" 2>/dev/null
seed unknown "$TMP/stranger/responder.pem" "$TMP/unknown.der"
head -c 120 "$TMP/good.der" >"$TMP/truncated.der"; seed truncated "$TMP/org/cam.pem" "$TMP/truncated.der"

# A JPEG lensd signs with the good response stapled (rVals), split for the verifier's targets.
swift build --package-path "$ROOT/fuzz" --scratch-path "$ROOT/.build-fuzz-seed" -c debug --product make-seed >/dev/null
MAKE_SEED="$(swift build --package-path "$ROOT/fuzz" --scratch-path "$ROOT/.build-fuzz-seed" -c debug --show-bin-path)/make-seed"
"$PY" "$ROOT/Tests/oracle/make_jpeg.py" "$TMP/in.jpg" --width 64 --height 48 --quality 60 >/dev/null
cat "$TMP/org/cam.pem" "$TMP/org/root.pem" >"$TMP/chain.pem"
openssl pkcs8 -topk8 -nocrypt -in "$TMP/org/cam.key" -out "$TMP/cam.pk8"
"$MAKE_SEED" "$TMP/in.jpg" "$TMP/lensd-stapled-ocsp.jpg" --key "$TMP/cam.pk8" --chain "$TMP/chain.pem" --ocsp "$TMP/good.der" >/dev/null
"$PY" "$ROOT/fuzz/extract-seeds.py" "$CORPUS" lensd-stapled-ocsp "$TMP/lensd-stapled-ocsp.jpg"
printf 'make-ocsp-seeds: fuzz-ocsp %d files\n' "$(find "$CORPUS/fuzz-ocsp" -type f | wc -l)"
