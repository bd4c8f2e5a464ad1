import Foundation
@testable import C2PA
@testable import C2PAEncoding

/// A signed MP4 in memory, with the places tamper tests damage.
struct MP4Tamper: ByteTampering {
    var bytes: [UInt8]

    init(_ url: URL) throws { bytes = Array(try Data(contentsOf: url)) }

    var boxes: [BMFFBox] { (try? BMFFScanner.children(of: bytes[...], at: 0)) ?? [] }

    func box(_ type: String) -> BMFFBox? { boxes.first { $0.type == type } }

    var manifestBox: BMFFBox? { boxes.first(where: \.isC2PA) }

    /// Offset just past the manifest store (the claim signature's r‖s ends there), before any padding.
    var storeEnd: Int {
        let start = manifestBox!.offset + ContentProvenanceBox.overhead
        return start + bytes[start..<(start + 4)].reduce(0) { $0 << 8 | Int($1) }
    }
}
