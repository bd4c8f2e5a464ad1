// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "lensd",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "C2PA", targets: ["C2PA"]),
        .library(name: "LensCrypto", targets: ["LensCrypto"]),
        .library(name: "LensClient", targets: ["LensClient"]),
        .library(name: "LensFace", targets: ["LensFace"]),
        // For the bus reader's fuzz target.
        .library(name: "LensBus", targets: ["LensBus"]),
        .executable(name: "lensctl", targets: ["lensctl"]),
        .executable(name: "lens-bench", targets: ["lens-bench"]),
        .executable(name: "lensd", targets: ["lensd"]),
        // The private bus, gpsd and lensd the tests run, for clients/lens-camera's UI tests.
        .library(name: "LensTestSupport", targets: ["LensTestSupport"]),
    ],
    targets: [
        // C shims: one per C dependency, nothing but adaptation.
        .target(name: "COpenSSL", linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "CSystemd", linkerSettings: [.linkedLibrary("systemd")]),
        .target(name: "CTurboJPEG", linkerSettings: [.linkedLibrary("turbojpeg")]),
        .target(name: "CGPS", linkerSettings: [.linkedLibrary("gps")]),
        .target(name: "CLinux"),
        .target(name: "CV4L2", linkerSettings: [.linkedLibrary("v4l2")]),
        .target(name: "CH264", linkerSettings: [.linkedLibrary("openh264")]),
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),  // libcurl itself is opened on first use
        .target(name: "CALSA", linkerSettings: [.linkedLibrary("asound")]),
        .target(name: "COpus", linkerSettings: [.linkedLibrary("opus")]),
        // PKCS#11 modules are loaded at run time (dlopen); only p11-kit's header is needed to build.
        .target(name: "CPKCS11", cSettings: [.unsafeFlags(["-I/usr/include/p11-kit-1"])], linkerSettings: [.linkedLibrary("dl")]),
        // tpm2-tss is loaded at run time (dlopen), only for TPM key attestation; its headers build it.
        .target(name: "CTSS2", linkerSettings: [.linkedLibrary("dl")]),

        // Swift modules.
        // File descriptors, errno and the one place file, descriptor and device calls are made (EINTR
        // retried, faults injectable by tests), threads and the clock: Swift over Glibc and CLinux
        // (memfd, seals, eventfd), below every other module.
        .target(name: "LensSystem", dependencies: ["CLinux"]),
        // The frozen names of the D-Bus API (bus names, paths, errors, signals), spelled once for
        // the daemon, LensClient and lensctl: pure Swift, no dependencies.
        .target(name: "LensContract"),
        .target(name: "LensCrypto", dependencies: ["COpenSSL", "CTSS2", "LensSystem"]),
        // The encodings a manifest is made of: CBOR, JUMBF, JSON, the claim, the labels (in one place).
        .target(name: "C2PAEncoding", dependencies: ["LensCrypto", "LensSystem"]),
        .target(name: "C2PA", dependencies: ["C2PAEncoding", "LensCrypto", "LensSystem"]),
        .target(name: "LensBus", dependencies: ["CSystemd", "LensSystem"]),
        // JPEG decoding, encoding and scaling over libturbojpeg: its own module so that lensctl gets
        // it without LensCore's libraries (curl, gps, v4l2, openh264), which cost its start-up ~6 ms.
        .target(name: "LensImaging", dependencies: ["CTurboJPEG"]),
        // The daemon's parts, bottom up. Where results live (the state directory, journals, staged
        // files, the secrets lensd reads):
        .target(name: "LensStorage", dependencies: ["C2PA", "LensCrypto", "LensSystem", "CLinux"]),
        // Cameras (V4L2, the synthetic one) and the preview streamed from them:
        .target(name: "LensCamera", dependencies: ["LensImaging", "LensSystem", "CV4L2", "CLinux", "CTurboJPEG"]),
        // Recordings: H.264 and Opus encoding, sound capture, the fragmented MP4 and its recovery:
        .target(name: "LensMedia", dependencies: ["LensCamera", "LensStorage", "C2PA", "LensImaging", "LensSystem",
                                                  "CH264", "CTurboJPEG", "CALSA", "COpus"]),
        // What lensd asks of the network: HTTP (libcurl), time-stamps, OCSP, the outbox's uploads:
        .target(name: "LensNetwork", dependencies: ["LensStorage", "C2PA", "LensCrypto", "LensSystem", "CCurl"]),
        // The device identity: keys (file, PKCS#11, TPM), self-, organization and EST enrollment:
        .target(name: "LensIdentity", dependencies: ["LensNetwork", "LensStorage", "C2PA", "LensCrypto", "LensSystem", "CPKCS11"]),
        // Capture itself: signing a photo or a recording with what the parts above give, the gate,
        // location from gpsd.
        .target(name: "LensCore", dependencies: ["LensCamera", "LensMedia", "LensNetwork", "LensIdentity", "LensStorage",
                                                 "C2PA", "LensCrypto", "LensSystem", "LensImaging", "CTurboJPEG", "CGPS", "CLinux"]),
        .target(name: "LensClient", dependencies: ["LensBus", "LensContract", "LensFace", "LensSystem"]),
        // Face detection and auto-capture: pure Swift, no C library (JPEG decoding stays with the caller).
        // Optimized in debug builds too: its pixel loops unoptimized score about one frame a second,
        // too slow for the daemon's tests (and ten times slower still in the vivid VM).
        .target(name: "LensFace", swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),

        // Executables.
        // LensImaging for its JPEG decoder (detect-faces), LensFace for the detector and the instruction texts.
        .executableTarget(name: "lensctl", dependencies: ["C2PA", "LensCrypto", "LensBus", "LensClient", "LensImaging", "LensFace",
                                                         "LensSystem"],
                          path: "clients/lensctl"),
        .executableTarget(name: "lens-bench", dependencies: ["C2PA", "LensCrypto", "LensCore", "LensCamera", "LensMedia", "LensNetwork", "LensIdentity", "LensStorage", "LensFace", "LensSystem"]),
        // The daemon's core is a library so that its state machine and flows are tested without a bus.
        .target(name: "LensDaemon", dependencies: ["LensCore", "LensCamera", "LensMedia", "LensNetwork", "LensIdentity", "LensStorage", "LensBus", "LensContract", "LensSystem", "C2PA", "LensCrypto", "LensFace"]),
        // Relative relocations packed (DT_RELR, glibc ≥ 2.36): the table the loader reads once
        // shrinks from 1.8 MB to a few KB, and so does what of it stays resident.
        .executableTarget(name: "lensd", dependencies: ["LensDaemon"],
                          linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"])]),

        // Tests.
        .testTarget(name: "LensCryptoTests", dependencies: ["LensCrypto"]),
        // The fault seam through LensSystem itself and two real callers: C2PA's signed output
        // file and LensClient's OutputFile (what lensctl writes results with); LensImaging makes the photo.
        .testTarget(name: "LensSystemTests", dependencies: ["LensSystem", "C2PA", "LensCrypto", "LensClient", "LensImaging",
                                                            "LensTestSupport"]),
        .target(name: "LensTestSupport", dependencies: ["LensClient"], path: "Tests/LensTestSupport"),
        // A scriptable D-Bus peer for the integration tests (a separate process, any user).
        .executableTarget(name: "lensd-test-peer", dependencies: ["LensBus", "LensSystem"], path: "Tests/LensdPeer"),
        .testTarget(name: "C2PATests", dependencies: ["C2PAEncoding", "C2PA", "LensCrypto", "LensTestSupport"]),
        .testTarget(name: "LensBusTests", dependencies: ["LensBus"]),
        .testTarget(name: "LensCoreTests", dependencies: ["LensCamera", "LensMedia", "LensNetwork", "LensIdentity", "LensStorage", "LensCore", "C2PA", "LensCrypto", "LensTestSupport", "LensSystem"]),
        .testTarget(name: "LensFaceTests", dependencies: ["LensCamera", "LensMedia", "LensNetwork", "LensIdentity", "LensStorage", "LensFace", "LensCore", "LensTestSupport", "LensSystem"]),
        .testTarget(name: "LensDaemonTests", dependencies: ["LensCamera", "LensMedia", "LensNetwork", "LensIdentity", "LensStorage", "LensDaemon", "LensBus", "LensClient", "LensContract", "LensCore", "LensCrypto", "C2PA",
                                                          "LensTestSupport", "LensSystem"]),
        .testTarget(name: "LensdTests", dependencies: ["LensBus", "LensClient", "LensContract", "LensSystem", "C2PA", "LensCrypto", "LensTestSupport"]),
    ]
)
