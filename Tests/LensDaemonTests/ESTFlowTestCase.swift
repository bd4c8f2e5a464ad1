import Foundation
import LensBus
import LensTestSupport
import XCTest

/// Issue 30 in process: `enrollment = est`. The EST server is Tests/oracle/est_server.py, a
/// stand-in for a production EST CA (none can run here) — a real process speaking EST over TLS
/// on 127.0.0.1, issuing with `openssl ca` from an organization CA the test makes, certificates
/// valid for 5 minutes. lensd's timers run on the daemon's clock: the test steps it through
/// backoffs, and makes it follow real time through a renewal, since the CA dates what it issues
/// by real time (c2pa-python, the judge of every photo, too).
class ESTFlowTestCase: XCTestCase {
    static let credential = "camera-07:s3cret"
    var tmp: TemporaryDirectory!
    var server: ESTServer!
    var lensd: DaemonHarness!

    override func setUpWithError() throws {
        try TestUsers.ensure()
        tmp = try TemporaryDirectory(prefix: "lensd-est-flow")
        server = try ESTServer(in: tmp.url, credential: Self.credential, ekCA: ekCA)
    }

    /// The TPM maker's CA the server checks TPM evidence against (none: it does not).
    var ekCA: URL? { nil }

    override func tearDownWithError() throws {
        defer { tmp = nil }  // last: XCTest keeps the test case object until the process exits
        try lensd?.shutDown()
        lensd = nil
        server?.stop()
    }

    /// Arguments a subclass adds to every start (its key).
    var keyArguments: [String] { [] }

    /// lensd with `enrollment = est` against the test's server, its state directory outliving it.
    func startDaemon(credential: String = credential, estCA: URL? = nil, credentialMode: mode_t = 0o640) throws {
        try lensd?.shutDown()
        let credentialFile = tmp.file("est-credential")
        try ESTServer.writeCredential(credential, to: credentialFile)
        XCTAssertEqual(chmod(credentialFile.path, credentialMode), 0)
        lensd = try DaemonHarness([
            "--enrollment", "est", "--est-url", server.url, "--est-ca", (estCA ?? server.tlsRoot).path,
            "--est-credential-file", credentialFile.path, "--org-trust-anchor", server.ca.root.path, "--renew-before", "270s",
            "--state-dir", tmp.file("state").path,
        ] + keyArguments)
    }

    var root: HarnessClient { lensd.client() }

    func enrollmentState() throws -> String? { try root.managerProperty("EnrollmentState").stringValue }

    /// Manager.ESTState, what `lensctl enroll status` shows.
    func estState() throws -> [String: BusValue] { try root.managerProperty("ESTState").vardictValue ?? [:] }

    func waitUntilEnrolled(_ what: String = "enrolled") throws {
        try lensd.loop.run(until: { (try? enrollmentState()) == "enrolled" }, timeout: .seconds(60),
                           "\(what) (EST: \(String(describing: try? estState())))")
    }

    /// Waits for an attempt that ends with an error containing `text`.
    func waitForError(_ text: String) throws -> [String: BusValue] {
        var state: [String: BusValue] = [:]
        try lensd.loop.run(until: {
            state = (try? estState()) ?? [:]
            return state["last_error"]?.stringValue?.contains(text) == true
        }, timeout: .seconds(60), "an EST error naming \(text) (EST: \(state))")
        return state
    }

    /// A photo by a member of the group: c2pa-python rates it Trusted with the organization's
    /// root; the serial of the certificate that signed it.
    func trustedPhotoSerial(file: StaticString = #filePath, line: UInt = #line) throws -> String? {
        let member = lensd.client(uid: try TestUsers.uid(TestUsers.member))
        defer { member.disconnect() }
        let session = try member.claimedSession()
        let photo = try XCTUnwrap(lensd.stateFiles.photo(named: try member.photo(in: session).name))
        return try ReferenceValidator.assertTrusted(photo, anchors: [server.ca.root], file: file, line: line).signatureInfo?.certSerialNumber
    }

    /// Moves the daemon's clock along with real time until `condition` holds (a generous bound).
    func followRealTime(_ what: String, until condition: @escaping () -> Bool) throws {
        try lensd.loop.run(until: { self.lensd.advanceClockToRealTime(); return condition() }, timeout: .seconds(90), what)
    }
}
