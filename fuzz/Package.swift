// swift-tools-version:6.0
// Fuzz targets for lensd's parsers of hostile input. Build and run with scripts/fuzz or
// scripts/fuzz-replay (they pass -sanitize=fuzzer,address); see fuzz/README.md.
import PackageDescription

let package = Package(
    name: "lensd-fuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        // name: keeps the package reference stable whatever the clone's directory is called.
        .package(name: "lensd", path: ".."),
    ],
    targets: [
        .executableTarget(name: "fuzz-cbor", dependencies: [.product(name: "C2PA", package: "lensd")]),
        .executableTarget(name: "fuzz-jumbf", dependencies: [.product(name: "C2PA", package: "lensd")]),
        .executableTarget(name: "fuzz-cose", dependencies: [
            .product(name: "C2PA", package: "lensd"), .product(name: "LensCrypto", package: "lensd"),
        ]),
        .executableTarget(name: "fuzz-certificate", dependencies: [.product(name: "LensCrypto", package: "lensd")]),
        .executableTarget(name: "fuzz-ocsp", dependencies: [.product(name: "LensCrypto", package: "lensd")]),
        .executableTarget(name: "fuzz-tsa-reply", dependencies: [.product(name: "LensCrypto", package: "lensd")]),
        .executableTarget(name: "fuzz-est-certs", dependencies: [.product(name: "LensCrypto", package: "lensd")]),
        .executableTarget(name: "fuzz-tpm-key-blob", dependencies: [.product(name: "LensCrypto", package: "lensd")]),
        .executableTarget(name: "fuzz-jpeg", dependencies: [.product(name: "C2PA", package: "lensd")]),
        .executableTarget(name: "fuzz-bmff", dependencies: [.product(name: "C2PA", package: "lensd")]),
        .executableTarget(name: "fuzz-cawg", dependencies: [.product(name: "C2PA", package: "lensd")]),
        .executableTarget(name: "fuzz-trust-list", dependencies: [.product(name: "C2PA", package: "lensd")]),
        .executableTarget(name: "fuzz-cascade", dependencies: [.product(name: "LensFace", package: "lensd")]),
        .executableTarget(name: "fuzz-catalog", dependencies: [.product(name: "LensFace", package: "lensd")]),
        .executableTarget(name: "fuzz-bus-reader", dependencies: [.product(name: "LensBus", package: "lensd")]),
        // Not a fuzz target: signs a JPEG with lensd's engine for fuzz/make-seeds.sh.
        .executableTarget(name: "make-seed", dependencies: [
            .product(name: "C2PA", package: "lensd"), .product(name: "LensCrypto", package: "lensd"),
        ]),
    ]
)
