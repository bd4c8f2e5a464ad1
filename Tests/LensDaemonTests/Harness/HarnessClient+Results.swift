import Foundation
import LensBus
import LensContract
import LensTestSupport
import XCTest

/// What the ported flow tests do again and again as a client: record for a while, fetch a
/// result to a file, save the trust anchor for c2pa-python.
extension HarnessClient {
    /// Runs the loop until the session's recording holds `seconds` of frames. The synthetic
    /// camera paces frames in real time, so this is the one wait that takes wall time; it reads
    /// VideoRecordingProgress, which the recording thread updates, as the bus tests' peer does.
    func waitUntilRecorded(_ session: String, seconds: Double, timeout: Duration = .seconds(120)) throws {
        try loop.run(until: {
            ((try? get(session, "VideoRecordingProgress"))?.vardictValue?["duration"]?.doubleValue ?? 0) >= seconds
        }, timeout: timeout, "\(seconds) s of frames recorded")
    }

    /// Video mode, StartVideoCapture, `seconds` of frames, StopVideoCapture; VideoSigned's name and info.
    func recordVideo(in session: String, seconds: Double) throws -> (name: String, info: [String: BusValue]) {
        try set(session, "CameraMode", .string("video"))
        try call(session, "StartVideoCapture")
        try waitUntilRecorded(session, seconds: seconds)
        try call(session, "StopVideoCapture")
        let signed = try waitForSignal("VideoSigned", path: session, timeout: .seconds(60))
        return (try XCTUnwrap(signed.arguments.first?.stringValue), signed.arguments.last?.vardictValue ?? [:])
    }

    /// FetchResult's descriptor read from its start into `file`; the reply's info.
    @discardableResult
    func fetchResult(_ name: String, in session: String, to file: URL) throws -> [String: BusValue] {
        let reply = try call(session, "FetchResult", [.string(name)])
        let fd = try XCTUnwrap(reply.first?.fdValue, "FetchResult answered \(reply)")
        defer { close(fd) }
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = pread(fd, &buffer, buffer.count, off_t(bytes.count))
            guard n > 0 else { break }
            bytes += buffer[..<n]
        }
        try Data(bytes).write(to: file)
        return reply.last?.vardictValue ?? [:]
    }

    /// GetTrustAnchor's PEM written into `directory`, for c2pa-python.
    func trustAnchorFile(in directory: TemporaryDirectory) throws -> URL {
        let pem = try XCTUnwrap(callManager("GetTrustAnchor").first?.stringValue)
        let url = directory.file("anchor.pem")
        try pem.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// Runs the loop until a signal `member` from `path` matching `predicate` is among those sent
    /// since `mark` (a count of `signals`); the first such. Unlike waitForSignal it skips nothing,
    /// for signals whose order among themselves lensd does not fix (as the bus tests' client,
    /// which keeps every signal it has not been asked for).
    @discardableResult
    func firstSignal(_ member: String, path: String, since mark: Int, timeout: Duration = .seconds(30),
                     where predicate: @escaping (EmbeddedBus.Emitted) -> Bool = { _ in true }) throws -> EmbeddedBus.Emitted {
        var found: EmbeddedBus.Emitted?
        try loop.run(until: {
            found = signals.dropFirst(mark).first { $0.member == member && $0.path == path && predicate($0) }
            return found != nil
        }, timeout: timeout, "signal \(member)")
        return found!
    }

    /// Runs the loop until `count` signals `member` from `path` are among those sent since
    /// `mark`, skipping nothing as firstSignal; the first `count`.
    func signals(_ member: String, path: String, since mark: Int, count: Int, timeout: Duration = .seconds(30)) throws -> [EmbeddedBus.Emitted] {
        var found: [EmbeddedBus.Emitted] = []
        try loop.run(until: {
            found = Array(signals.dropFirst(mark).filter { $0.member == member && $0.path == path }.prefix(count))
            return found.count == count
        }, timeout: timeout, "\(count) signals \(member)")
        return found
    }

    /// A Manager property.
    func managerProperty(_ name: String) throws -> BusValue { try get(Lens1.managerPath, name) }

    /// The session's DisabledReasons.
    func disabledReasons(_ session: String) throws -> [String] { try get(session, "DisabledReasons").stringArrayValue ?? [] }
}
