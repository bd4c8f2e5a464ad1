#!/usr/bin/env bash
# fuzz/make-est-seeds.sh - regenerates the named seeds of fuzz-est-certs: what an EST server
# answers to /cacerts and /simpleenroll (PKCS#7 certs-only, RFC 7030 §4.1.3), made by openssl as
# Tests/oracle/est_server.py makes them: a root alone, a leaf with its root, base64 with CRLF line
# ends, the DER itself, a message with no certificates, a signed message (not certs-only), DER
# with trailing bytes, and a truncated one. Keys are fresh on every run.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/fuzz/corpus/fuzz-est-certs"
TMP=$(mktemp -d /tmp/lensd-est-seeds.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
cd "$TMP"

cat >ext.cnf <<'CNF'
[root]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[leaf]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = emailProtection, clientAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
CNF
openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout root.key -out root.pem -days 30 \
  -subj "/O=Example News/CN=Example News Root CA" -config ext.cnf -extensions root 2>/dev/null
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout leaf.key -out leaf.csr -subj "/CN=cam-07" 2>/dev/null
openssl x509 -req -in leaf.csr -CA root.pem -CAkey root.key -CAcreateserial -days 1 -extfile ext.cnf -extensions leaf \
  -out leaf.pem 2>/dev/null

certs_only() {  # certs_only OUT PEM... : DER
  local out=$1; shift
  local args=()
  for pem in "$@"; do args+=(-certfile "$pem"); done
  openssl crl2pkcs7 -nocrl "${args[@]}" -outform DER -out "$out"
}
certs_only cacerts.der root.pem
certs_only issued.der leaf.pem root.pem
openssl crl2pkcs7 -nocrl -outform DER -out empty.der
openssl cms -sign -binary -nodetach -in root.pem -signer leaf.pem -inkey leaf.key -outform DER -out signed.der 2>/dev/null

base64 cacerts.der >"$OUT/cacerts.b64"
base64 issued.der | sed 's/$/\r/' >"$OUT/issued-crlf.b64"
cp issued.der "$OUT/issued.der"
base64 empty.der >"$OUT/no-certificates.b64"
base64 signed.der >"$OUT/signed-not-certs-only.b64"
{ cat cacerts.der; printf 'trailing'; } | base64 >"$OUT/trailing-bytes.b64"
head -c 200 issued.der | base64 >"$OUT/truncated.b64"
printf 'make-est-seeds: fuzz-est-certs %d files\n' "$(find "$OUT" -type f | wc -l)"
