#!/usr/bin/env bash
# fuzz/build.sh [TARGET...] - builds the libFuzzer targets (default: all) into <repo>/.build-fuzz
# and prints the directory holding the binaries on its last line. Used by scripts/fuzz and
# scripts/fuzz-replay.
#
# Flags, each needed (checked with swift 6.3.1):
#  --sanitize fuzzer --sanitize address  SwiftPM then links libFuzzer's main: it skips the
#      testable-executable entry-point renaming (-Xswiftc alone fails: "undefined symbol
#      fuzz_cbor_main"), and passes -fsanitize=fuzzer,address to the C shim COpenSSL.
#  -Xswiftc -sanitize=fuzzer,address  swiftc forwards only the last -sanitize= to the frontend, so
#      the two SwiftPM flags alone leave C2PA and LensCrypto without coverage instrumentation.
#  -Xswiftc -use-ld=lld  gold drops the per-function __sancov_cntrs sections (9 counters left).
# Products are built one at a time: a plain `swift build` would also build the root package's
# executables, which do not compile as libraries.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$ROOT/fuzz/targets.sh"
FLAGS=(--package-path "$ROOT/fuzz" --scratch-path "$ROOT/.build-fuzz" -c debug
       --sanitize fuzzer --sanitize address -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${ALL_TARGETS[@]}")
LOG=$(mktemp /tmp/lensd-fuzz-build.XXXXXX)
trap 'rm -f "$LOG"' EXIT
for target in "${targets[@]}"; do
  if ! swift build "${FLAGS[@]}" --product "$target" >"$LOG" 2>&1; then
    grep -v 'Cannot export local symbol' "$LOG" | tail -n 40 >&2
    echo "fuzz/build.sh: building $target failed" >&2
    exit 1
  fi
done
swift build "${FLAGS[@]}" --show-bin-path
