import Foundation
import LensBus
import LensTestSupport
import XCTest

/// Who may do what, on the shipped policy: outsiders nothing, members only their own sessions.
final class SecurityTests: LensdTestCase {
    /// An outsider may introspect, and nothing else: every method of the contract is refused by the
    /// bus, and no session property can be read.
    func testOutsiderIsRefusedEveryMethodAndProperty() throws {
        let c = try client()
        let session = try c.openSession()
        let contract = try Contract.shipped()
        var steps: [String] = []
        for member in contract.members where member.kind == .method {
            let path = member.interface.hasSuffix("Manager") ? TestClient.managerPath : session
            steps.append("call:\(path):\(member.interface):\(member.name)")
        }
        for member in contract.members(of: TestClient.session) where member.kind == .property {
            steps.append("get:\(session):\(member.interface):\(member.name)")
        }
        let outsider = try peer(steps, as: TestUsers.outsider)
        XCTAssertEqual(try outsider.finish(), 0, "\(outsider.lines)")
        XCTAssertEqual(outsider.lines.count, steps.count, "\(outsider.lines)")
        for line in outsider.lines {
            XCTAssertTrue(line.hasPrefix("error ") && line.contains("org.freedesktop.DBus.Error.AccessDenied"), line)
        }
        let introspect = try peer(["call:\(TestClient.managerPath):org.freedesktop.DBus.Introspectable:Introspect"],
                                  as: TestUsers.outsider)
        XCTAssertEqual(try introspect.finish(), 0)
        XCTAssertTrue(introspect.lines.first?.hasPrefix("reply ") == true && introspect.lines.joined().contains("org.lensd.Lens1.Manager"))
    }

    /// Member B, subscribed to everything lensd sends, receives nothing of member A's session,
    /// and may neither call it nor read its properties.
    func testMembersSeeOnlyTheirOwnSessions() throws {
        let listener = try peer(["listen:8"], as: TestUsers.secondMember)
        try listener.waitForLine("listening")
        let a = try peer(["open", "start", "capture", "wait:PhotoSigned"], as: TestUsers.member)
        XCTAssertEqual(try a.finish(), 0, "\(a.lines)")
        XCTAssertTrue(a.lines.contains { $0.hasPrefix("signal PhotoSigned") })
        XCTAssertEqual(try listener.finish(), 0)
        XCTAssertEqual(listener.lines.filter { $0.hasPrefix("signal") }, [], "B received A's signals")

        // Issue 35.7: another member's session answers as a session that never existed, and
        // introspection lists each member only the sessions it may use.
        let c = try client()
        let session = try c.openSession()
        let missing = "/org/lensd/Lens1/session/999999"
        let introspect = "org.freedesktop.DBus.Introspectable:Introspect"
        let intruder = try peer(["open", "call:\(session):org.lensd.Lens1.Session:BeginCapture",
                                 "get:\(session):org.lensd.Lens1.Session:Location",
                                 "call:\(missing):org.lensd.Lens1.Session:BeginCapture",
                                 "call:/org/lensd/Lens1/session:\(introspect)", "call:\(session):\(introspect)"],
                                as: TestUsers.secondMember)
        XCTAssertEqual(try intruder.finish(), 0)
        // One answer per step; an introspection answer spans lines.
        let answers = intruder.lines.filter { !$0.hasPrefix("signal") }.joined(separator: "\n")
            .split(separator: /\n(?=(reply|error) )/).map(String.init)
        XCTAssertEqual(answers.count, 6, "\(answers)")
        for line in answers[1...3] { XCTAssertTrue(line.contains("org.freedesktop.DBus.Error.UnknownObject"), line) }
        XCTAssertFalse(answers[1].contains("another client"), "the refusal tells that the session exists: \(answers[1])")
        let own = try XCTUnwrap(answers[0].split(separator: "/").last.map(String.init))
        let number = try XCTUnwrap(session.split(separator: "/").last.map(String.init))
        XCTAssertTrue(answers[4].contains("<node name=\"\(own)\""), "its own session is listed: \(answers[4])")
        XCTAssertFalse(answers[4].contains("<node name=\"\(number)\""), "another's session is listed: \(answers[4])")
        XCTAssertFalse(answers[5].contains("org.lensd.Lens1.Session"), "another's session introspects: \(answers[5])")
        let mine = try c.call("/org/lensd/Lens1/session", "Introspect", interface: "org.freedesktop.DBus.Introspectable")
        XCTAssertTrue(mine.first?.stringValue?.contains("<node name=\"\(number)\"") == true, "\(mine)")
        XCTAssertFalse(mine.first?.stringValue?.contains("<node name=\"\(own)\"") == true, "\(mine)")
    }

    /// The identity on disk: key 0600, directory 0700, and a restart keeps the same certificate.
    func testKeyFilesArePrivateAndARestartKeepsTheIdentity() throws {
        let identity = daemon.stateDirectory.appendingPathComponent("identity")
        XCTAssertEqual(try mode(identity), 0o700)
        XCTAssertEqual(try mode(identity.appendingPathComponent("device.key")), 0o600)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: identity.path)[.ownerAccountID] as? Int,
                       Int(try TestUsers.uid("lensd")))
        let before = try client().callManager("GetTrustAnchor").first?.stringValue
        let certificate = try Data(contentsOf: identity.appendingPathComponent("device.pem"))
        try restartDaemon()
        XCTAssertEqual(try client().callManager("GetTrustAnchor").first?.stringValue, before)
        XCTAssertEqual(try Data(contentsOf: identity.appendingPathComponent("device.pem")), certificate)
    }

    /// Issue 21.1: a member removed with `gpasswd -d` while their session holds the camera loses it
    /// at their next call — on a connection the bus still lets through (its process groups were
    /// set while a member) — and the claim is free for others at once.
    func testMemberRemovedFromTheGroupLosesSessionsAndClaim() throws {
        let user = TestUsers.revocable
        try TestUsers.setLensMembership(user, member: true)
        let removed = try peer(["open", "start", "capture", "wait:PhotoSigned", "readline", "capture", "start"], as: user)
        try removed.waitForLine("signal PhotoSigned")
        try TestUsers.setLensMembership(user, member: false)
        defer { try? TestUsers.setLensMembership(user, member: true) }
        removed.proceed()
        XCTAssertEqual(try removed.finish(), 0, "\(removed.lines)")
        let afterRemoval = removed.lines.drop { !$0.hasPrefix("reply readline") }.dropFirst().filter { !$0.hasPrefix("signal") }
        XCTAssertEqual(afterRemoval.count, 2, "\(removed.lines)")
        XCTAssertTrue(afterRemoval.first?.hasPrefix("error capture org.lensd.Lens1.Error.NotAuthorized") == true, "\(afterRemoval)")
        XCTAssertTrue(afterRemoval.first?.contains("no longer in group lens") == true, "\(afterRemoval)")
        // The session is gone, not merely refused.
        XCTAssertTrue(afterRemoval.last?.contains("org.freedesktop.DBus.Error.UnknownObject") == true, "\(afterRemoval)")
        let c = try client()
        XCTAssertNoThrow(try c.call(try c.openSession(), "StartCaptureSession"), "the removed member's claim was not released")
    }

    /// Issue 35.8: a member removed while making no call loses a streaming preview and a
    /// recording within a second or two, and the recording is kept. (A property read before the
    /// next look answers NotAuthorized, as a method call does: MembershipRevocationFlowTests, in process.)
    func testARemovedMemberWhoMakesNoCallLosesPreviewAndRecording() throws {
        let user = TestUsers.revocable
        try TestUsers.setLensMembership(user, member: true)
        defer { try? TestUsers.setLensMembership(user, member: true) }
        let removed = try peer(["open", "start", "preview", "video", "record", "wait:VideoRecordingStarted", "readline",
                                "get:/org/lensd/Lens1/session/1:org.lensd.Lens1.Session:Location"], as: user)
        try removed.waitForLine("signal VideoRecordingStarted")
        try TestUsers.setLensMembership(user, member: false)
        let removedAt = Date()
        try waitForLog("is no longer in group lens: closing it", timeout: 30)
        XCTAssertLessThan(Date().timeIntervalSince(removedAt), 5, "the session outlived the removal")
        let deadline = Date().addingTimeInterval(60)
        while storedVideos().isEmpty {
            guard Date() < deadline else { throw TestToolError("the recording was not kept: \(daemon.log)") }
            usleep(50_000)
        }
        removed.proceed()
        XCTAssertEqual(try removed.finish(), 0, "\(removed.lines)")
        let read = try XCTUnwrap(removed.lines.last { $0.contains("get:") })
        XCTAssertTrue(read.contains("UnknownObject"), "the session is gone: \(read)")
    }

    /// Issue 21.4: the policy lets outsiders introspect, so lensd itself must not list the open
    /// sessions to them: /session has no children for an outsider, and an existing session's path
    /// answers exactly as a path that never existed. A member still sees the children.
    func testOutsiderIntrospectionListsNoSessions() throws {
        let c = try client()
        let session = try c.openSession()
        let number = session.split(separator: "/").last!
        let member = try c.call("/org/lensd/Lens1/session", "Introspect", interface: "org.freedesktop.DBus.Introspectable")
        XCTAssertTrue(member.first?.stringValue?.contains("<node name=\"\(number)\"") == true, "\(member)")

        let introspect = "org.freedesktop.DBus.Introspectable:Introspect"
        let outsider = try peer(["call:/org/lensd/Lens1/session:\(introspect)", "call:\(session):\(introspect)",
                                 "call:/org/lensd/Lens1/session/999999:\(introspect)"], as: TestUsers.outsider)
        XCTAssertEqual(try outsider.finish(), 0)
        let replies = outsider.lines.joined(separator: "\n").components(separatedBy: "reply call:").dropFirst()
            .map { $0.drop { $0 != " " }.trimmingCharacters(in: .whitespacesAndNewlines) }
        XCTAssertEqual(replies.count, 3, "\(outsider.lines)")
        for reply in replies {
            XCTAssertFalse(reply.contains("<node name="), "an outsider was shown children: \(reply)")
            XCTAssertFalse(reply.contains("org.lensd.Lens1.Session"), "an outsider learnt a session exists: \(reply)")
        }
        XCTAssertEqual(Set(replies).count, 1, "paths of live and never-opened sessions answer differently: \(replies)")
    }

    /// Issue 21.3: a symbolic link planted at results/<uid> does not send photos out of the state
    /// directory: the store is refused, logged, and the owner told; nothing lands at the target.
    func testAPlantedLinkForAUsersResultsIsRefused() throws {
        let elsewhere = tmp.file("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
        XCTAssertEqual(chown(elsewhere.path, try TestUsers.uid("lensd"), gid_t.max), 0)
        let planted = daemon.stateDirectory.appendingPathComponent("results/0")
        try FileManager.default.createSymbolicLink(atPath: planted.path, withDestinationPath: elsewhere.path)

        let c = try client()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        try c.call(session, "BeginCapture")
        let failed = try c.waitForSignal("Failed", path: session)
        XCTAssertTrue(failed.arguments.last?.stringValue?.contains("symbolic link") == true, "\(failed.arguments)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
        XCTAssertTrue(daemon.log.contains("refusing \(planted.path)"), daemon.log)
    }

    /// Issue 21.3: the device key is read only as lensd's own regular file — a symbolic link at
    /// identity/device.key disables capture (enrollment) with the reason logged, instead of being
    /// followed and accepted.
    func testALinkedOrForeignDeviceKeyIsRefused() throws {
        let identity = daemon.stateDirectory.appendingPathComponent("identity")
        let key = identity.appendingPathComponent("device.key")
        let moved = daemon.stateDirectory.appendingPathComponent("moved.key")
        daemon.stop()
        XCTAssertEqual(rename(key.path, moved.path), 0)
        try FileManager.default.createSymbolicLink(atPath: key.path, withDestinationPath: moved.path)
        try restartDaemon()
        XCTAssertEqual(try client().get(TestClient.managerPath, "EnrollmentState", interface: TestClient.manager).stringValue, "invalid")
        XCTAssertTrue(daemon.log.contains("symbolic link"), daemon.log)

        XCTAssertTrue(daemon.log.contains("refusing \(key.path)"), daemon.log)

        // Put back, the same key is accepted again: nothing else was wrong with it. (A key of
        // another owner: DeviceIdentityTests, since the test daemon's start gives the state to lensd.)
        daemon.stop()
        XCTAssertEqual(unlink(key.path), 0)
        XCTAssertEqual(rename(moved.path, key.path), 0)
        try restartDaemon()
        XCTAssertEqual(try client().get(TestClient.managerPath, "EnrollmentState", interface: TestClient.manager).stringValue, "enrolled")
    }

    private func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int ?? 0) & 0o7777
    }
}

/// Without the policy file the bus lets anyone through: lensd's own check must still refuse.
final class NoPolicyFileTests: LensdTestCase {
    override func makeBus() throws -> PrivateSystemBus { try PrivateSystemBus(policyDirectory: nil, openDefault: true) }

    func testDaemonItselfAnswersNotAuthorized() throws {
        let c = try client()
        let session = try c.openSession()
        let contract = try Contract.shipped()
        var steps: [String] = []
        for member in contract.members where member.kind == .method && member.inSignature.isEmpty {
            let path = member.interface.hasSuffix("Manager") ? TestClient.managerPath : session
            steps.append("call:\(path):\(member.interface):\(member.name)")
        }
        for member in contract.members where member.kind == .property {
            let path = member.interface.hasSuffix("Manager") ? TestClient.managerPath : session
            steps.append("get:\(path):\(member.interface):\(member.name)")
        }
        let outsider = try peer(steps + ["open"], as: TestUsers.outsider)
        _ = try outsider.finish()
        XCTAssertEqual(outsider.lines.count, steps.count + 1, "\(outsider.lines)")
        for line in outsider.lines {
            XCTAssertTrue(line.hasPrefix("error ") && line.contains("org.lensd.Lens1.Error.NotAuthorized"), line)
        }
        XCTAssertTrue(outsider.lines.last?.contains("add the user to group lens") == true, "\(outsider.lines)")
    }
}
