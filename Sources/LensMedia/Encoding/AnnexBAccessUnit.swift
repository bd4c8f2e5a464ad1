/// Turns an encoder's Annex B output (NAL units each behind a 00 00 01 or 00 00 00 01 start
/// code) into an MP4 sample: parameter sets taken out for avcC, access unit delimiters dropped,
/// every other NAL unit behind its 4-byte big-endian length.
struct AnnexBAccessUnit {
    enum NALType: UInt8 {
        case sps = 7, pps = 8, accessUnitDelimiter = 9
    }

    private(set) var sample: [UInt8] = []
    private(set) var sps: [UInt8]?
    private(set) var pps: [UInt8]?

    /// Adds one NAL unit as the encoder wrote it (start code included).
    mutating func append(annexB nal: UnsafeBufferPointer<UInt8>) throws {
        let payload = UnsafeBufferPointer(rebasing: nal[try Self.startCodeLength(nal)...])
        guard let header = payload.first else { throw H264Error("the encoder wrote an empty NAL unit") }
        switch NALType(rawValue: header & 0x1F) {
        case .sps: sps = Array(payload)
        case .pps: pps = Array(payload)
        case .accessUnitDelimiter: break
        case nil:
            appendLengthPrefixed(payload)
        }
    }

    private mutating func appendLengthPrefixed(_ payload: UnsafeBufferPointer<UInt8>) {
        let length = UInt32(payload.count)
        sample += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        sample += payload
    }

    private static func startCodeLength(_ nal: UnsafeBufferPointer<UInt8>) throws -> Int {
        if nal.count >= 4, nal[0] == 0, nal[1] == 0, nal[2] == 0, nal[3] == 1 { return 4 }
        if nal.count >= 3, nal[0] == 0, nal[1] == 0, nal[2] == 1 { return 3 }
        throw H264Error("the encoder wrote a NAL unit without an Annex B start code")
    }
}
