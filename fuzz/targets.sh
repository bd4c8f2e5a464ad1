# Every libFuzzer target of fuzz/Package.swift, for fuzz/build.sh, scripts/fuzz and scripts/fuzz-replay.
# shellcheck disable=SC2034
ALL_TARGETS=(fuzz-cbor fuzz-jumbf fuzz-cose fuzz-certificate fuzz-ocsp fuzz-tsa-reply fuzz-est-certs fuzz-tpm-key-blob fuzz-jpeg fuzz-bmff fuzz-cawg
             fuzz-trust-list fuzz-cascade fuzz-catalog fuzz-bus-reader)
