// swift-tools-version:6.0
// lens-camera: the SDK's sample camera app as a GTK 4 desktop app on LensClient. A package of
// its own so that building lensd and lensctl never needs GTK.
import PackageDescription

let package = Package(
    name: "lens-camera",
    dependencies: [.package(name: "lensd", path: "../..")],
    targets: [
        // GTK 4 through pkg-config; its header adds the few inline adapters Swift needs (macros, casts).
        .systemLibrary(name: "CGtk", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
        // The one Swift layer that touches GTK's C API.
        .target(name: "GtkKit", dependencies: ["CGtk"]),
        // The app: windows, controls and their state, on LensClient; C2PA verifies what it fetched.
        .target(name: "LensCameraUI", dependencies: ["GtkKit", .product(name: "LensClient", package: "lensd"),
                                                     .product(name: "LensFace", package: "lensd"),
                                                     // ProjectVersion, for the About window.
                                                     .product(name: "LensBus", package: "lensd"),
                                                     .product(name: "C2PA", package: "lensd"),
                                                     .product(name: "LensCrypto", package: "lensd")]),
        .executableTarget(name: "lens-camera", dependencies: ["LensCameraUI"]),
        .testTarget(name: "LensCameraAppTests", dependencies: ["LensCameraUI", .product(name: "LensTestSupport", package: "lensd")]),
        // Drives the built app under Xvfb against lensd on a private system bus.
        .testTarget(name: "LensCameraUITests", dependencies: [.product(name: "LensTestSupport", package: "lensd"),
                                                              .product(name: "LensClient", package: "lensd")],
                    exclude: ["Scripts"]),
    ],
    swiftLanguageModes: [.v5]
)
