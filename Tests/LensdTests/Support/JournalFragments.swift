import Foundation
import LensTestSupport

extension LensdTestCase {
    /// The journal of the recording under way once it holds `count` complete fragments (a moof
    /// and all of its mdat) — with `runs` runs (trafs) each when given: 2 when sound runs beside
    /// the picture. What a recovery after SIGKILL can keep is on disk then.
    @discardableResult
    func waitForJournalFragments(_ count: Int, runs: Int? = nil) throws -> URL {
        let journal = try waitForJournal()
        do {
            try waitUntil("\(count) complete fragment(s) in \(journal.lastPathComponent)") {
                let bytes = (try? [UInt8](Data(contentsOf: journal))) ?? []
                return Self.completeFragmentRuns(bytes).filter { runs == nil || $0 == runs }.count >= count
            }
        } catch {
            throw TestToolError("\(error)\n\(daemon.log)")
        }
        return journal
    }

    /// Each complete fragment's number of trafs, in file order.
    private static func completeFragmentRuns(_ bytes: [UInt8]) -> [Int] {
        func boxes(_ range: Range<Int>) -> [(type: String, range: Range<Int>)] {
            var out: [(String, Range<Int>)] = [], at = range.lowerBound
            while at + 8 <= range.upperBound {
                var size = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }, header = 8
                if size == 1, at + 16 <= range.upperBound {
                    size = bytes[(at + 8)..<(at + 16)].reduce(0) { $0 << 8 | Int($1) }
                    header = 16
                }
                guard size >= header, at + size <= range.upperBound else { break }  // cut short: not complete
                out.append((String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self), at..<(at + size)))
                at += size
            }
            return out
        }
        let top = boxes(0..<bytes.count)
        return zip(top, top.dropFirst()).filter { $0.type == "moof" && $1.type == "mdat" }.map { moof, _ in
            boxes((moof.range.lowerBound + 8)..<moof.range.upperBound).filter { $0.type == "traf" }.count
        }
    }
}
