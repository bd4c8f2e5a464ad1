// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "lensd",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "C2PA", targets: ["C2PA"]),
        .library(name: "LensCrypto", targets: ["LensCrypto"]),
        .executable(name: "lensctl", targets: ["lensctl"]),
        .executable(name: "lens-bench", targets: ["lens-bench"]),
    ],
    targets: [
        // C shims: one per C dependency, nothing but adaptation.
        .target(name: "COpenSSL", linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "CSystemd", linkerSettings: [.linkedLibrary("systemd")]),

        // Swift modules.
        .target(name: "LensCrypto", dependencies: ["COpenSSL"]),
        .target(name: "C2PA", dependencies: ["LensCrypto"]),
        .target(name: "LensBus", dependencies: ["CSystemd"]),

        // Executables.
        .executableTarget(name: "lensctl", dependencies: ["C2PA", "LensCrypto"], path: "clients/lensctl"),
        .executableTarget(name: "lens-bench", dependencies: ["C2PA", "LensCrypto"]),

        // Tests.
        .testTarget(name: "LensCryptoTests", dependencies: ["LensCrypto"]),
        .testTarget(name: "C2PATests", dependencies: ["C2PA", "LensCrypto"]),
        .testTarget(name: "LensBusTests", dependencies: ["LensBus"]),
    ]
)
