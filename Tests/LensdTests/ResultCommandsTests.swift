import Foundation
import LensClient
import LensTestSupport
import XCTest

/// `lensctl results`, `fetch` and `rm` against lensd on the synthetic camera: each user sees,
/// fetches and removes only their own results; what is fetched is what was signed.
final class ResultCommandsTests: LensdTestCase {
    override var daemonArguments: [String] {
        ["--camera", "synthetic", "--location", "optional", "--gpsd", "none", "--synthetic-size", "320x240"]
    }

    func testUsersListFetchAndRemoveTheirOwnResultsOnly() throws {
        let photo = outbox.appendingPathComponent("photo.jpg")
        let captured = try lensctl.expect(0, ["capture", "-o", photo.path, "--json"], as: TestUsers.member)
        let photoName = try XCTUnwrap(try json(captured.stdout)["name"] as? String)
        let recorded = try lensctl.expect(0, ["record", "--duration", "1", "-o", outbox.path, "--json"], as: TestUsers.member)
        let videoName = try XCTUnwrap(try json(recorded.stdout)["name"] as? String)
        // record's JSON: lensd's verdict, and the length to the millisecond, not to 16 digits.
        XCTAssertEqual(try json(recorded.stdout)["verdict"] as? String, "Trusted")
        XCTAssertNotNil(recorded.stdout.range(of: #""duration_s" : \d+(\.\d{1,3})?,"#, options: .regularExpression), recorded.stdout)

        let listing = try lensctl.expect(0, ["results", "--json"], as: TestUsers.member).stdout
        try JSONSchemaCheck.assertValid(listing, schema: "results")
        try JSONSchemaCheck.assertInvalid(listing.replacingOccurrences(of: "\"usage\"", with: "\"surprise\" : 1, \"usage\""),
                                          schema: "results")
        let results = try XCTUnwrap(try json(listing)["results"] as? [[String: Any]])
        XCTAssertEqual(results.map { $0["name"] as? String }, [videoName, photoName], "newest first")
        XCTAssertEqual(results.map { $0["type"] as? String }, ["video", "photo"])
        XCTAssertEqual(results.map { $0["signed"] as? Bool }, [true, true])
        XCTAssertEqual(results.last?["size"] as? Int, try Data(contentsOf: photo).count)
        let usage = try XCTUnwrap(try json(listing)["usage"] as? [String: Any])
        XCTAssertEqual(usage["count"] as? Int, 2)
        XCTAssertEqual(usage["max_count"] as? Int, 100)
        let text = try lensctl.expect(0, ["results"], as: TestUsers.member).stdout
        XCTAssertTrue(text.contains("\(photoName)  photo  "), text)
        XCTAssertNotNil(text.range(of: #"usage: 2 of 100 results, \d+(\.\d)?[KM] of 1\.0G \(the oldest are deleted beyond either\)\n$"#,
                                   options: .regularExpression), text)

        // Another member sees none of them and can neither fetch nor remove them.
        let other = try lensctl.expect(0, ["results", "--json"], as: TestUsers.secondMember).stdout
        XCTAssertEqual((try json(other)["results"] as? [[String: Any]])?.count, 0)
        let stolen = outbox.appendingPathComponent("stolen.jpg")
        XCTAssertTrue(try lensctl.expect(1, ["fetch", photoName, "-o", stolen.path], as: TestUsers.secondMember).stderr
            .contains("you have no result named \(photoName)"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: stolen.path))
        try lensctl.expect(1, ["rm", photoName], as: TestUsers.secondMember)

        // Fetched bytes are the signed ones: the photo as capture wrote it, the video trusted by c2pa-rs.
        let again = outbox.appendingPathComponent("again.jpg")
        let fetched = try lensctl.expect(0, ["fetch", photoName, "-o", again.path, "--json"], as: TestUsers.member)
        try JSONSchemaCheck.assertValid(fetched.stdout, schema: "fetch")
        XCTAssertEqual(try Data(contentsOf: again), try Data(contentsOf: photo))
        let videos = outbox.appendingPathComponent("videos")
        try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
        try lensctl.expect(0, ["fetch", videoName, "-o", videos.path], as: TestUsers.member)
        let anchor = tmp.file("anchor.pem")
        try lensctl.expect(0, ["trust-anchor"]).stdout.write(to: anchor, atomically: true, encoding: .utf8)
        try ReferenceValidator.assertTrusted(videos.appendingPathComponent("\(videoName).mp4"), anchors: [anchor])
        let piped = try runProcess(TestUsers.asUser(TestUsers.member, [try LensctlRunner.binary, "fetch", photoName, "-o", "-",
                                                                        "--bus", bus.address]))
        XCTAssertEqual(piped.status, 0, String(decoding: piped.stderr, as: UTF8.self))
        XCTAssertEqual(piped.stdout, try Data(contentsOf: photo))
        // Never over an existing file without --force.
        try lensctl.expect(1, ["fetch", photoName, "-o", again.path], as: TestUsers.member)

        // rm deletes from lensd only: the stored file goes, the written ones stay.
        let removed = try lensctl.expect(0, ["rm", photoName, "--json"], as: TestUsers.member)
        try JSONSchemaCheck.assertValid(removed.stdout, schema: "rm")
        XCTAssertFalse(storedPhotos().contains { $0.lastPathComponent == "\(photoName).jpg" })
        XCTAssertTrue(FileManager.default.fileExists(atPath: photo.path))
        let after = try lensctl.expect(0, ["results", "--json"], as: TestUsers.member).stdout
        XCTAssertEqual((try json(after)["results"] as? [[String: Any]])?.map { $0["name"] as? String }, [videoName])
        let twice = try lensctl.expect(1, ["rm", photoName, videoName], as: TestUsers.member)
        XCTAssertEqual(twice.stdout, "removed \(videoName)\n")
        XCTAssertEqual(twice.stderr, "lensctl: you have no result named \(photoName); see lensctl results\n")
        XCTAssertTrue(storedVideos().isEmpty)
        try lensctl.expect(2, ["rm"], as: TestUsers.member)
        try lensctl.expect(2, ["fetch"], as: TestUsers.member)
    }

    /// LensClient's result calls: a name that is not a UUID is InvalidArgument, as lensd answers
    /// it (lensd's refusals themselves are tested in process, LensDaemonTests' ResultStoreFlowTests).
    func testLensClientListsAndDeletesResults() throws {
        let owner = try LensCamera(bus: .address(bus.address), delegateQueue: DispatchQueue(label: "owner"))
        defer { owner.close() }
        try lensctl.expect(0, ["capture", "-o", outbox.appendingPathComponent("p.jpg").path])
        let name = try XCTUnwrap(try owner.results().first?.name)
        XCTAssertThrowsError(try owner.deleteResult("../../etc/passwd")) { XCTAssertEqual(($0 as? LensClientError)?.name, "InvalidArgument") }
        XCTAssertEqual(try owner.results().map(\.name), [name])
        try owner.deleteResult(name)
        XCTAssertEqual(try owner.results(), [])
    }

    private func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }
}

/// At the per-user cap, the oldest result goes, and LensClient and `lensctl results` say so
/// (lensd's side, its log included, is tested in process: ResultStoreFlowTests).
final class ResultEvictionTests: LensdTestCase {
    override var daemonConfiguration: String { "max-results-per-user = 2\n" }

    func testLensClientAndLensctlTellOfAnEviction() throws {
        let camera = try LensCamera(bus: .address(bus.address), delegateQueue: DispatchQueue(label: "evictions"))
        defer { camera.close() }
        let events = EventRecorder(camera.events)
        var names: [String] = []
        for index in 0..<3 {
            let r = try lensctl.expect(0, ["capture", "-o", outbox.appendingPathComponent("\(index).jpg").path, "--json"])
            names.append(try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["name"] as? String))
        }
        let deadline = Date().addingTimeInterval(20)
        while !events.all.contains(where: { if case .resultEvicted = $0 { true } else { false } }), Date() < deadline { usleep(20_000) }
        XCTAssertEqual(events.all.filter { $0.signalName == "ResultEvicted" },
                       [.resultEvicted(name: names[0], reason: "over max-results-per-user (2 results)")])
        XCTAssertEqual(try camera.results().map(\.name), [names[2], names[1]])
        XCTAssertEqual(try camera.status().resultLimits.maxCount, 2)
        let watched = try lensctl.expect(0, ["results"]).stdout
        XCTAssertNotNil(watched.range(of: #"usage: 2 of 2 results, \d+(\.\d)?[KM] of 1\.0G \(the oldest are deleted beyond either\)\n$"#,
                                      options: .regularExpression), watched)
    }
}
