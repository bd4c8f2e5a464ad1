import C2PA
import Foundation
import LensCamera
import LensCore
import LensCrypto
import LensNetwork
import LensStorage
import LensTestSupport
import XCTest

/// What re-stamping tests share: a device PKI, a running TSA, a result store, and photos signed
/// as lensd signs them while no TSA answers.
class RestampTestCase: XCTestCase {
    var directory: TemporaryDirectory!
    var pki: TestPKI!
    var tsa: LocalTSA!
    var store: ResultStore!
    let generator = ClaimGeneratorInfo(name: "lensd-tests", version: "0")

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "lensd-restamp")
        pki = try TestPKI.make(in: directory.file("pki"))
        tsa = try LocalTSA(directory: directory.file("tsa"))
        store = try ResultStore(directory: directory.file("results"))
    }

    override func tearDown() {
        tsa = nil
        store = nil
        directory = nil
    }

    /// A photo signed without a time-stamp; `number` varies the picture.
    func offlinePhoto(number: Int = 1) throws -> [UInt8] {
        let jpeg = Array(try Data(contentsOf: try TestJPEG.make(at: directory.file("frame\(number).jpg"), seed: number)))
        let photo = CapturedPhoto(jpeg: jpeg, thumbnail: [], width: 640, height: 480, captureTime: Date(), make: "lensd",
                                  model: "test camera", isSynthetic: true, digitalZoomRatio: nil, frameNumber: UInt64(number))
        return try PhotoSigning(signer: try signer(), generator: generator).sign(photo, location: nil).jpeg
    }

    func signer() throws -> KeySigner {
        try KeySigner(keyPEM: try String(contentsOf: pki.key, encoding: .utf8), chainPEM: try String(contentsOf: pki.chain, encoding: .utf8))
    }

    func restamping() throws -> Restamping {
        let root = { (url: URL) in try Certificate.parsePEM(try String(contentsOf: url, encoding: .utf8))[0] }
        return Restamping(client: TSAClient(urls: [tsa.url], anchors: [try root(tsa.root)]), signer: try signer(),
                          generator: generator, trustAnchors: [try root(pki.root)])
    }
}
