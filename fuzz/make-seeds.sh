#!/usr/bin/env bash
# fuzz/make-seeds.sh - regenerates the named seed inputs under fuzz/corpus/<target>/ from real
# signed files: small (64x48) JPEGs signed by c2pa-python (the reference; without c2pa-rs's own
# thumbnail, which alone is 64 KB) and by lensd's own engine (fuzz/Sources/make-seed), split by
# fuzz/extract-seeds.py into store JUMBF, claim and assertion CBOR, COSE_Sign1 and certificate
# DER/PEM. Inputs that fuzzing merged in (named by their SHA-1) are left alone.
# Needs the venv of scripts/setup; keys are fresh on every run.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PY="$ROOT/.venv/bin/python"
ORACLE="$ROOT/Tests/oracle"
CORPUS="$ROOT/fuzz/corpus"
[ -x "$PY" ] || { echo "make-seeds: $PY missing: run scripts/setup first" >&2; exit 1; }

# make-seed is an ordinary program (libFuzzer's main would clash with its own): its own scratch path.
echo "make-seeds: building make-seed"
swift build --package-path "$ROOT/fuzz" --scratch-path "$ROOT/.build-fuzz-seed" -c debug --product make-seed \
  >/dev/null || { echo "make-seeds: building make-seed failed" >&2; exit 1; }
MAKE_SEED="$(swift build --package-path "$ROOT/fuzz" --scratch-path "$ROOT/.build-fuzz-seed" -c debug --show-bin-path)/make-seed"

TMP=$(mktemp -d /tmp/lensd-seeds.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

bash "$ORACLE/make_pki.sh" "$TMP/p256" >/dev/null
bash "$ORACLE/make_pki.sh" "$TMP/p384" --curve P-384 --intermediates 2 >/dev/null
"$PY" "$ORACLE/make_jpeg.py" "$TMP/in.jpg" --width 64 --height 48 --quality 60 >/dev/null
"$PY" "$ORACLE/make_jpeg.py" "$TMP/exif.jpg" --width 64 --height 48 --quality 60 --exif-first --foreign-app11 >/dev/null

ref() { "$PY" "$ORACLE/sign_reference.py" "$@" >/dev/null; }
ref "$TMP/in.jpg" "$TMP/c2pa-python.jpg" --key "$TMP/p256/leaf.pk8" --chain "$TMP/p256/chain.pem" \
  --when 2026-11-29T12:00:00Z
ref "$TMP/in.jpg" "$TMP/c2pa-python-v1.jpg" --key "$TMP/p256/leaf.pk8" --chain "$TMP/p256/chain.pem" \
  --claim-version 1 --when 2026-11-29T12:00:00Z
ref "$TMP/exif.jpg" "$TMP/c2pa-python-p384.jpg" --key "$TMP/p384/leaf.pk8" --chain "$TMP/p384/chain.pem" --alg es384 \
  --when 2026-11-29T12:00:00Z
"$MAKE_SEED" "$TMP/in.jpg" "$TMP/lensd.jpg" --key "$TMP/p256/leaf.pk8" --chain "$TMP/p256/chain.pem" >/dev/null
"$MAKE_SEED" "$TMP/exif.jpg" "$TMP/lensd-p384.jpg" --key "$TMP/p384/leaf.pk8" --chain "$TMP/p384/chain.pem" \
  --thumbnail >/dev/null

# The shapes other writers use (issue 20): PS256 and Ed25519 signatures, an edit with its parent's
# manifest nested, an update manifest, hand-written indefinite-length CBOR with explicit nulls and
# relative URIs, and an RFC 3161 time-stamp from Tests/oracle/local_tsa.py (stopped by its PID).
bash "$ORACLE/make_pki.sh" "$TMP/rsa" --curve RSA >/dev/null
bash "$ORACLE/make_pki.sh" "$TMP/ed25519" --curve ED25519 >/dev/null
ref "$TMP/in.jpg" "$TMP/c2pa-python-ps256.jpg" --key "$TMP/rsa/leaf.pk8" --chain "$TMP/rsa/chain.pem" --alg ps256 \
  --when 2026-11-29T12:00:00Z
ref "$TMP/in.jpg" "$TMP/c2pa-python-edit.jpg" --key "$TMP/ed25519/leaf.pk8" --chain "$TMP/ed25519/chain.pem" --alg ed25519 \
  --parent "$TMP/c2pa-python-ps256.jpg" --when 2026-11-29T12:00:00Z
ref "$TMP/c2pa-python.jpg" "$TMP/c2pa-python-update.jpg" --key "$TMP/p256/leaf.pk8" --chain "$TMP/p256/chain.pem" \
  --parent "$TMP/c2pa-python.jpg" --update
"$PY" "$ORACLE/rewrite_manifest.py" "$TMP/c2pa-python.jpg" "$TMP/c2pa-python-rewritten.jpg" --key "$TMP/p256/leaf.pk8" \
  --indefinite-cbor --explicit-nulls --relative-uris >/dev/null
# CAWG identities (fuzz-cawg): an X.509 one, and identity claims aggregation credentials (did:jwk,
# a did:web issuer, no validFrom, a validUntil, a non-zero pad1).
"$PY" "$ORACLE/rewrite_manifest.py" "$TMP/c2pa-python.jpg" "$TMP/c2pa-python-x509-identity.jpg" --key "$TMP/p256/leaf.pk8" \
  --cawg-identity "$TMP/p256/leaf.pem" >/dev/null
ica() { "$PY" "$ORACLE/rewrite_manifest.py" "$TMP/c2pa-python.jpg" "$TMP/c2pa-python-ica-$1.jpg" --key "$TMP/p256/leaf.pk8" \
          --cawg-ica "$2" "${@:3}" >/dev/null; }
ica jwk '{}'
ica web '{"issuer": "did:web:lensd-test.invalid"}'
ica dates '{"valid_from": null, "valid_until": "future"}'
ica pad '{}' --identity-shape '{"pad1": "01"}'

coproc TSA { exec "$PY" "$ORACLE/local_tsa.py" "$TMP/tsa"; }
read -r _ tsa_url <&"${TSA[0]}"
ref "$TMP/in.jpg" "$TMP/c2pa-python-stamped.jpg" --key "$TMP/p256/leaf.pk8" --chain "$TMP/p256/chain.pem" --tsa-url "$tsa_url"
kill "$TSA_PID"

# MP4 (fuzz-bmff): 64x48, 3 frames of H.264 moov last and MJPEG moov first, as the files themselves.
ffmpeg -v error -f lavfi -i testsrc=size=64x48:rate=30 -frames:v 3 -c:v libx264 -pix_fmt yuv420p "$TMP/in.mp4"
ffmpeg -v error -f lavfi -i testsrc=size=64x48:rate=30 -frames:v 3 -c:v mjpeg -q:v 20 -movflags +faststart "$TMP/mjpeg.mp4"
ref "$TMP/in.mp4" "$TMP/c2pa-python.mp4" --key "$TMP/p256/leaf.pk8" --chain "$TMP/p256/chain.pem" --when 2026-11-29T12:00:00Z
"$MAKE_SEED" "$TMP/mjpeg.mp4" "$TMP/lensd.mp4" --key "$TMP/p384/leaf.pk8" --chain "$TMP/p384/chain.pem" >/dev/null

mkdir -p "$CORPUS"/{fuzz-cbor,fuzz-jumbf,fuzz-cose,fuzz-certificate,fuzz-tsa-reply,fuzz-jpeg,fuzz-bmff,fuzz-cawg,fuzz-trust-list,fuzz-cascade,fuzz-catalog}
# Trust lists and trust settings (fuzz-trust-list): made up in the official list's shape.
"$PY" "$ROOT/fuzz/make-trust-list-seeds.py" "$CORPUS/fuzz-trust-list"
# Cascades (fuzz-cascade): the frontal-face file's layout with made-up numbers, and malformed variants.
"$PY" "$ROOT/fuzz/make-cascade-seeds.py" "$CORPUS"
# Catalogs (fuzz-catalog): po/ compiled by msgfmt, little-endian as msgfmt writes, one big-endian, and a truncated one.
mkdir -p "$CORPUS/fuzz-catalog"
for po in "$ROOT"/po/*.po; do msgfmt -o "$CORPUS/fuzz-catalog/$(basename "$po" .po).mo" "$po"; done
msgfmt --endianness=big -o "$CORPUS/fuzz-catalog/de-big-endian.mo" "$ROOT/po/de.po"
head -c 100 "$CORPUS/fuzz-catalog/de.mo" >"$CORPUS/fuzz-catalog/de-truncated.mo"
cp "$TMP/in.mp4" "$CORPUS/fuzz-bmff/unsigned.mp4"
cp "$TMP/c2pa-python.mp4" "$TMP/lensd.mp4" "$CORPUS/fuzz-bmff/"
"$PY" "$ORACLE/rewrite_manifest.py" "$TMP/c2pa-python.mp4" "$CORPUS/fuzz-bmff/c2pa-python-plain-hash-nulls.mp4" \
  --key "$TMP/p256/leaf.pk8" --plain-bmff-hash --explicit-nulls --indefinite-cbor >/dev/null
cp "$TMP/in.jpg" "$CORPUS/fuzz-jpeg/unsigned.jpg"
cp "$TMP/exif.jpg" "$CORPUS/fuzz-jpeg/unsigned-exif-foreign-app11.jpg"
"$PY" "$ROOT/fuzz/extract-seeds.py" "$CORPUS" c2pa-python "$TMP/c2pa-python.jpg" "$TMP/p256/chain.pem"
"$PY" "$ROOT/fuzz/extract-seeds.py" "$CORPUS" c2pa-python-v1 "$TMP/c2pa-python-v1.jpg"
"$PY" "$ROOT/fuzz/extract-seeds.py" "$CORPUS" c2pa-python-p384 "$TMP/c2pa-python-p384.jpg" "$TMP/p384/chain.pem"
"$PY" "$ROOT/fuzz/extract-seeds.py" "$CORPUS" lensd "$TMP/lensd.jpg"
for shape in ps256 edit update rewritten stamped x509-identity ica-jwk ica-web ica-dates ica-pad; do
  "$PY" "$ROOT/fuzz/extract-seeds.py" "$CORPUS" "c2pa-python-$shape" "$TMP/c2pa-python-$shape.jpg"
done
"$PY" "$ROOT/fuzz/extract-seeds.py" "$CORPUS" lensd-p384 "$TMP/lensd-p384.jpg"

# TSA answers (fuzz-tsa-reply), made by the same `openssl ts -reply` local_tsa.py runs: granted with
# the chain, granted without certificates or nonce, and a rejection (a digest the TSA does not accept).
tsr() { openssl ts -query -data "$TMP/in.jpg" "${@:2}" -out "$TMP/q.tsq" 2>/dev/null
        openssl ts -reply -config "$TMP/tsa/tsa.cnf" -queryfile "$TMP/q.tsq" -chain "$TMP/tsa/tsa_root.pem" \
          -out "$CORPUS/fuzz-tsa-reply/$1.tsr" 2>/dev/null; }
tsr granted-with-chain -sha256 -cert
tsr granted-no-certificates-no-nonce -sha256 -no_nonce
tsr granted-sha512 -sha512 -cert
tsr rejected-md5 -md5 -cert
head -c 200 "$CORPUS/fuzz-tsa-reply/granted-with-chain.tsr" >"$CORPUS/fuzz-tsa-reply/truncated.tsr"

big=$(find "$CORPUS" -type f -size +64k)
[ -z "$big" ] || { echo "make-seeds: seeds over 64 KB: $big" >&2; exit 1; }
for d in "$CORPUS"/*/; do
  printf 'make-seeds: %-18s %3d files, %s\n' "$(basename "$d")" "$(find "$d" -type f | wc -l)" "$(du -sh "$d" | cut -f1)"
done
