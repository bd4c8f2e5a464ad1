import C2PA
import Foundation
import LensCamera
import LensCore
import LensTestSupport
import XCTest

/// lensd says only what it can vouch for: a device it cannot tell is a physical sensor (a virtual
/// V4L2 driver such as vivid or v4l2loopback, or one on no sensor bus) is signed as
/// algorithmicMedia, never digitalCapture, so the Conformance Program's signals rubric never reads
/// it as capturedMedia; a physical camera's photo does read so. Either way the manifest records the
/// identity lensd read from the driver, and a USB camera's ids and serial. (The devices are
/// descriptions: the VM tests run vivid; USBDeviceIdentityTests reads the ids from sysfs.)
final class CaptureClaimTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var pki: TestPKI!

    override func setUpWithError() throws {
        directory = try temporaryDirectory(prefix: "lensd-capture-claim")
        pki = try TestPKI.make(in: directory.file("pki"))
    }

    private static let settings = V4L2Camera.Settings(width: 640, height: 480, frameRate: 30, quality: 90)
    private static let vivid = CameraDescription(path: "/dev/video0", name: "vivid", driver: "vivid", busInfo: "platform:vivid-000",
                                                 position: .unspecified, isVirtual: true, formats: ["YUYV"])
    private static let webcam = CameraDescription(path: "/dev/video2", name: "HD Webcam", driver: "uvcvideo",
                                                  busInfo: "usb-0000:00:14.0-1", position: .unspecified, isVirtual: false, formats: ["MJPG"],
                                                  usb: USBDeviceIdentity(vendorID: "046d", productID: "0825", serial: "9A1B2C3D"))

    func testOnlyARealDriverOnASensorBusCountsAsAPhysicalSensor() {
        XCTAssertTrue(V4L2Discovery.isVirtual(driver: "vivid", busInfo: "platform:vivid-000"))
        XCTAssertTrue(V4L2Discovery.isVirtual(driver: "v4l2 loopback", busInfo: "platform:v4l2loopback-000"))
        XCTAssertTrue(V4L2Discovery.isVirtual(driver: "somecam", busInfo: ""), "no bus: nothing says it is a sensor")
        XCTAssertTrue(V4L2Discovery.isVirtual(driver: "somecam", busInfo: "somecam-0"))
        XCTAssertFalse(V4L2Discovery.isVirtual(driver: "uvcvideo", busInfo: "usb-0000:00:14.0-1"))
        XCTAssertFalse(V4L2Discovery.isVirtual(driver: "unicam", busInfo: "platform:fe801000.csi"))
        XCTAssertTrue(V4L2Camera(Self.vivid, settings: Self.settings).state.isSynthetic)
        XCTAssertFalse(V4L2Camera(Self.webcam, settings: Self.settings).state.isSynthetic)
    }

    func testAVirtualDeviceMakesNoCaptureClaimAndSaysWhichDriverItWas() throws {
        let verdict = try signAndJudge(Self.vivid, capturedMedia: false)
        XCTAssertEqual(verdict.actions.map(\.digitalSourceType), ["http://cv.iptc.org/newscodes/digitalsourcetype/algorithmicMedia"])
        let identity = try XCTUnwrap(verdict.metadata[Labels.cameraMetadata], "\(verdict.metadata.keys)")
        XCTAssertEqual(identity["lensd:driver"]?.string, "vivid")
        XCTAssertEqual(identity["lensd:busInfo"]?.string, "platform:vivid-000")
        XCTAssertEqual(identity["lensd:physicalSensor"], .bool(false))
        XCTAssertEqual(identity["lensd:usbVendorId"], nil, "vivid is on no USB bus")
    }

    func testAPhysicalCamerasPhotoReadsAsCapturedMedia() throws {
        let verdict = try signAndJudge(Self.webcam, capturedMedia: true)
        XCTAssertEqual(verdict.actions.map(\.digitalSourceType), ["http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"])
        let identity = try XCTUnwrap(verdict.metadata[Labels.cameraMetadata], "\(verdict.metadata.keys)")
        XCTAssertEqual(identity["lensd:card"]?.string, "HD Webcam")
        XCTAssertEqual(identity["lensd:busInfo"]?.string, "usb-0000:00:14.0-1")
        XCTAssertEqual(identity["lensd:physicalSensor"], .bool(true))
        XCTAssertEqual(identity["lensd:usbVendorId"]?.string, "046d")
        XCTAssertEqual(identity["lensd:usbProductId"]?.string, "0825")
        XCTAssertEqual(identity["lensd:usbSerial"]?.string, "9A1B2C3D")
        XCTAssertEqual(verdict.metadata["c2pa.metadata"]?["tiff:Make"]?.string, "uvcvideo")
    }

    /// The control: the rubric oracle does fail a manifest as lensd wrote them before (c2pa-python's
    /// own Builder writes neither specVersion nor allActionsIncluded), and reads it as ambiguous.
    func testTheRubricFailsAManifestWithoutSpecVersionOrAllActionsIncluded() throws {
        let input = try TestJPEG.make(at: directory.file("plain.jpg"), seed: 4)
        let file = directory.file("reference.jpg")
        try ReferenceSigner.sign(input: input, output: file, pki: pki)
        let report = try ConformanceRubric.report(file: file, anchors: [pki.root])
        XCTAssertEqual(report.failed, ["mandatory_spec_version", "mandatory_all_actions_included"])
        XCTAssertEqual(report.statements.count, 31)
        XCTAssertEqual(report.signals.map(\.ambiguousActions), [true])
        XCTAssertEqual(report.signals.map(\.capturedMedia), [true], "it says digitalCapture")
    }

    /// A photo as V4L2Camera builds it from `device`, signed as lensd signs it, judged by
    /// c2pa-python (Trusted) and the conformance rubric.
    private func signAndJudge(_ device: CameraDescription, capturedMedia: Bool, line: UInt = #line) throws -> ReferenceVerdict {
        let state = V4L2Camera(device, settings: Self.settings).state
        let jpeg = Array(try Data(contentsOf: try TestJPEG.make(at: directory.file("frame.jpg"), seed: 3)))
        let photo = CapturedPhoto(jpeg: jpeg, thumbnail: [], width: 640, height: 480, captureTime: Date(), make: device.driver,
                                  model: device.name, isSynthetic: state.isSynthetic, digitalZoomRatio: nil, frameNumber: 1,
                                  busInfo: device.busInfo, usb: device.usb)
        let signer = try KeySigner(keyPEM: try String(contentsOf: pki.key, encoding: .utf8),
                                   chainPEM: try String(contentsOf: pki.chain, encoding: .utf8))
        let file = directory.file("\(device.driver).jpg")
        try Data(try PhotoSigning(signer: signer, generator: ClaimGeneratorInfo(name: "lensd-tests", version: "0"))
            .sign(photo, location: nil).jpeg).write(to: file)
        let verdict = try ReferenceValidator.assertTrusted(file, anchors: [pki.root], line: line)
        try ConformanceRubric.assertConformant(file, anchors: [pki.root], capturedMedia: capturedMedia, line: line)
        return verdict
    }
}
