import Foundation
import LensTestSupport
import XCTest

/// Issue 30 with the device key on a PKCS#11 token (SoftHSM 2): lensd cannot hand a token key to
/// libcurl for TLS, so it renews by /simpleenroll with the credential, for the same key, and says
/// so. lensd loads a PKCS#11 module once per path for the life of its process: the test copies
/// SoftHSM to a path of its own (as OrganizationEnrollmentFlowTests does).
final class ESTTokenKeyFlowTests: ESTFlowTestCase {
    private var token: SoftHSMToken!
    private var module: URL!
    private let environment = ProcessEnvironment()

    override func setUpWithError() throws {
        try super.setUpWithError()
        token = try SoftHSMToken(in: tmp.file("softhsm"), owner: "lensd")
        module = tmp.file("libsofthsm2-est-copy.so")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: SoftHSMToken.module).resolvingSymlinksInPath(), to: module)
        environment.set(token.environment.mapValues { $0 })
    }

    override func tearDownWithError() throws {
        defer { environment.restore() }
        try super.tearDownWithError()
    }

    override var keyArguments: [String] {
        ["--key", "pkcs11:token=\(token.label);object=device", "--pkcs11-module", module.path, "--pkcs11-pin-file", token.pinFile.path]
    }

    func testATokenKeyEnrollsAndRenewsWithTheCredential() throws {
        try startDaemon()
        try waitUntilEnrolled()
        XCTAssertEqual(try trustedPhotoSerial(), server.issuedSerials.first)
        let renewAfter = try root.managerProperty("CertificateRenewAfter").uint64Value

        try followRealTime("the renewal") {
            self.server.issuedSerials.count == 2 && (try? self.root.managerProperty("CertificateRenewAfter").uint64Value) != renewAfter
        }
        XCTAssertEqual(server.count("simpleenroll"), 2, "renewed with the credential")
        XCTAssertEqual(server.count("simplereenroll"), 0)
        XCTAssertNil(try estState()["last_error"])
        XCTAssertEqual(try trustedPhotoSerial(), server.issuedSerials[1])
        XCTAssertEqual(lensd.stateFiles.privateKeyFiles, [], "the key stays on the token")
    }
}
