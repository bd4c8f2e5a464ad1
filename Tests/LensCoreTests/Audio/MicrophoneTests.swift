import LensCore
import LensMedia
import XCTest

/// Opening capture devices that cannot be used: the error says which kind of failure it is.
/// (A device that captures is tested in the vivid VM, with snd-aloop.)
final class MicrophoneTests: XCTestCase {
    func testANonexistentDeviceIsUnavailable() {
        XCTAssertThrowsError(try Microphone(settings: AudioSettings(device: "hw:CARD=NoSuchCard"))) { error in
            XCTAssertEqual((error as? AudioError)?.kind, .deviceUnavailable, "\(error)")
            XCTAssertTrue("\(error)".contains("hw:CARD=NoSuchCard"), "\(error)")
        }
    }

    func testWithoutASoundCardTheDefaultDeviceIsUnavailable() throws {
        guard (try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd"))?.contains(where: { $0.hasPrefix("pcmC") }) != true else {
            throw XCTSkip("this machine has a sound card")
        }
        XCTAssertThrowsError(try Microphone(settings: AudioSettings())) { error in
            XCTAssertEqual((error as? AudioError)?.kind, .deviceUnavailable, "\(error)")
        }
    }
}
