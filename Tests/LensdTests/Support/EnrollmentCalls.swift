import Foundation
import LensBus
import LensTestSupport
import XCTest

/// Manager calls of enrollment as root, and running openssl with text on stdin.
extension LensdTestCase {
    func enrollmentState() throws -> String? {
        let c = try client()
        return try c.get(TestClient.managerPath, "EnrollmentState", interface: TestClient.manager).stringValue
    }

    func certificateRequest() throws -> String {
        let c = try client()
        let reply = try c.callManager("CreateCertificateRequest", [.vardict([
            "commonName": .string("cam-07"), "organization": .string("Example News"),
            "dnsNames": .array(elementSignature: "s", [.string("cam-07.example.org")]),
        ])])
        return try XCTUnwrap(reply.first?.stringValue)
    }

    /// stdout of `argv` fed `input`; a failure is thrown with its stderr.
    func output(_ argv: [String], input: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = argv
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestToolError("\(argv[0]): \(String(decoding: err, as: UTF8.self))") }
        return String(decoding: out, as: UTF8.self)
    }

    func installCertificate(_ chain: String) throws -> [String: BusValue] {
        let c = try client()
        let reply = try c.callManager("InstallCertificate", [.string(chain)])
        guard let info = reply.first?.vardictValue else { throw TestToolError("InstallCertificate answered \(reply)") }
        return info
    }

    /// Every file under lensd's state directory that holds a private key lensd could read (PKCS#8
    /// or SEC1 PEM); a TPM's wrapped blob is not one.
    func privateKeyFiles() -> [String] {
        let names = FileManager.default.enumerator(atPath: daemon.stateDirectory.path)?.allObjects as? [String] ?? []
        return names.filter { name in
            let contents = (try? String(contentsOfFile: daemon.stateDirectory.appendingPathComponent(name).path, encoding: .utf8)) ?? ""
            return contents.contains("BEGIN PRIVATE KEY") || contents.contains("BEGIN EC PRIVATE KEY")
        }
    }
}
