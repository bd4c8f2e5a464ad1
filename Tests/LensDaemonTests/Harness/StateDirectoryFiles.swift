import Foundation
@testable import LensDaemon

/// The files of lensd's state directory a test looks at: stored results, recordings under way,
/// unfinished writes.
struct StateDirectoryFiles {
    let directory: URL

    var results: URL { directory.appendingPathComponent("results") }

    /// Every path under the state directory, relative to it.
    var all: [String] { FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? [] }

    /// <results>/<uid>/<name>.jpg.
    var photos: [URL] { stored(withExtension: "jpg") }

    /// <results>/<uid>/<name>.mp4 (not the hidden ones still recording).
    var videos: [URL] { stored(withExtension: "mp4") }

    func photo(named name: String) -> URL? { photos.first { $0.lastPathComponent == "\(name).jpg" } }
    func video(named name: String) -> URL? { videos.first { $0.lastPathComponent == "\(name).mp4" } }

    /// The journals of recordings under way: <results>/<uid>/.recording-<name>.mp4.
    var recordingJournals: [URL] {
        resultFiles.filter { $0.lastPathComponent.hasPrefix(".recording-") && $0.pathExtension == "mp4" }
    }

    /// Every file whose name marks an unfinished write.
    var temporaryFiles: [String] { all.filter { ($0 as NSString).lastPathComponent.hasPrefix(".tmp") } }

    /// Files holding a private key lensd could read (PKCS#8 or SEC1 PEM); a token's key is not one.
    var privateKeyFiles: [String] {
        all.filter { name in
            let contents = (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
            return contents.contains("BEGIN PRIVATE KEY") || contents.contains("BEGIN EC PRIVATE KEY")
        }
    }

    private var resultFiles: [URL] {
        (FileManager.default.enumerator(atPath: results.path)?.allObjects as? [String] ?? []).map(results.appendingPathComponent)
    }

    private func stored(withExtension pathExtension: String) -> [URL] {
        resultFiles.filter { $0.pathExtension == pathExtension && !$0.lastPathComponent.hasPrefix(".") }
    }
}

extension DaemonHarness {
    var stateFiles: StateDirectoryFiles { StateDirectoryFiles(directory: URL(fileURLWithPath: configuration.stateDirectory)) }

    /// Moves the daemon's clock, which stood still since the harness started, up to the real
    /// time (whole seconds on): for what was made outside it meanwhile with the real clock, such
    /// as a certificate `openssl ca` issues valid from now.
    func advanceClockToRealTime() {
        let behind = Date().timeIntervalSince(loop.clock.wall())
        if behind > 0 { loop.advance(by: .seconds(behind.rounded(.up))) }
    }
}
