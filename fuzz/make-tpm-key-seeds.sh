#!/usr/bin/env bash
# fuzz/make-tpm-key-seeds.sh - regenerates the named seeds of fuzz-tpm-key-blob: "TSS2 PRIVATE KEY"
# blobs as OpenSSL's tpm2 provider writes them (TPMKey), made by `openssl asn1parse -genconf`
# around the public and private areas of a P-256 key a throwaway swtpm made: the blob as DER and
# PEM, a persistent parent, no emptyAuth, an importable key's type, a public area whose size
# does not match, trailing bytes, and a truncated one.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/fuzz/corpus/fuzz-tpm-key-blob"
TMP=$(mktemp -d /tmp/lensd-tpm-key-seeds.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"

PUBLIC=00560023000b000600720000001000100003001000209a35637f182d449e3497eced7c7282783e9f1d08109d86e852b30092a8707ba40020330a001ef3dc9664c52899a8eabed39d6c78b6657e6b2ebf56952ffaeec74a93
PRIVATE=007e0020ce4117f8ae90fc23296649789d54502ddab6509a3f78fee30690f1464ca3c5990010009a10284746d65dcaf8baec8fb74499bcfc956baf038f07e6fa9a6068afeba6ebe5a0fd667e614cc89642aae26504ca4b42d179766a45522eba5cd5f84a83833f0a708b754f61d7be192e8f923ee2c1d9bac0ff7289969c6a69

# blob NAME TYPE-OID PARENT PUBLIC-HEX [no-empty-auth]
blob() {
  local auth="emptyAuth = EXPLICIT:0,BOOLEAN:TRUE"
  [ "${5:-}" = no-empty-auth ] && auth=""
  cat >"$TMP/$1.cnf" <<CNF
asn1 = SEQUENCE:key
[key]
type = OID:$2
$auth
parent = INTEGER:$3
public = FORMAT:HEX,OCTETSTRING:$4
private = FORMAT:HEX,OCTETSTRING:$PRIVATE
CNF
  openssl asn1parse -genconf "$TMP/$1.cnf" -noout -out "$OUT/$1.der"
}

blob loadable 2.23.133.10.1.3 0x40000001 "$PUBLIC"
{ echo "-----BEGIN TSS2 PRIVATE KEY-----"; base64 -w 64 "$OUT/loadable.der"; echo "-----END TSS2 PRIVATE KEY-----"; } >"$OUT/loadable.pem"
blob persistent-parent 2.23.133.10.1.3 0x81000001 "$PUBLIC"
blob no-empty-auth 2.23.133.10.1.3 0x40000001 "$PUBLIC" no-empty-auth
blob importable-type 2.23.133.10.1.4 0x40000001 "$PUBLIC"
blob public-size-mismatch 2.23.133.10.1.3 0x40000001 "0057${PUBLIC:4}"
{ cat "$OUT/loadable.der"; printf 'trailing'; } >"$OUT/trailing-bytes.der"
head -c 100 "$OUT/loadable.der" >"$OUT/truncated.der"
printf 'make-tpm-key-seeds: fuzz-tpm-key-blob %d files\n' "$(find "$OUT" -type f | wc -l)"
