/// The fixed start of every lensd MP4: `ftyp`, then a `free` box of exactly `reserveSize` bytes
/// that the C2PA signer later overwrites, then the journal's `moov`.
enum JournalLayout {
    static let reserveSize = 65536
    private static let brands = ["isom", "iso2", "mp41"]

    static func fileType(for format: VideoTrackFormat) -> [UInt8] {
        var compatible = brands
        if case .h264 = format { compatible.append("avc1") }
        return BoxBuilder.build { builder in
            builder.box("ftyp") { box in
                box.fourCC("isom")
                box.u32(0x200)
                for brand in compatible { box.fourCC(brand) }
            }
        }
    }

    static func reserve() -> [UInt8] {
        BoxBuilder.build { builder in
            builder.box("free") { $0.zeros(reserveSize - 8) }
        }
    }

    /// What finalizing turns the journal's moov and every moof into: a `free` box of the same size
    /// (only the type changes), which the C2PA hash leaves out.
    static let retiredType = Array("free".utf8)

    /// The header `box` (moov or moof, 32-bit size) has once retired.
    static func retiredHeader(of box: [UInt8]) -> [UInt8] {
        Array(box.prefix(4)) + retiredType
    }

    /// Whether `ftyp` is one `fileType(for:)` wrote: major isom, minor 0x200, our compatible brands.
    static func isLensdFileType(_ ftyp: [UInt8]) -> Bool {
        var reader = BoxReader(ftyp)
        do {
            try reader.skip(4)
            guard try reader.fourCC() == "ftyp", try reader.fourCC() == "isom", try reader.u32() == 0x200,
                  reader.remaining % 4 == 0 else { return false }
            var compatible: [String] = []
            while reader.remaining > 0 { compatible.append(try reader.fourCC()) }
            return compatible == brands || compatible == brands + ["avc1"]
        } catch {
            return false
        }
    }
}
