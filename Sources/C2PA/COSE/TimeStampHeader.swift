/// The unprotected header of a time-stamped claim signature: `sigTst2` = {"tstTokens": [{"val":
/// token}]} and `pad` filling the rest of a fixed reserve, as c2pa-rs writes it. The header is
/// not signed, so its size must be the same with a token, without one, and before signing:
/// containers place the store before the token is known.
enum TimeStampHeader {
    /// `besides` (the stapled OCSP responses) comes first and is the same with a token or without.
    static func unprotected(token: [UInt8]?, reserve: Int, besides other: [CBOR.Pair] = []) throws -> CBOR {
        let size = CBOR.map(other + [pad(reserve)]).encoded().count
        guard let token else { return .map(other + [pad(reserve)]) }
        let stamp = CBOR.Pair(.text("sigTst2"), .map([CBOR.Pair(.text("tstTokens"), .array([.map([CBOR.Pair(.text("val"), .bytes(token))])]))]))
        let withoutPad = CBOR.map(other + [stamp, pad(0)]).encoded().count
        // The pad's length n and its head must together take what is left; the head's width
        // depends on n, so each width is tried.
        let left = size - withoutPad + CBOR.headCount(argument: 0)
        for head in [1, 2, 3, 5] where left - head >= 0 && CBOR.headCount(argument: UInt64(left - head)) == head {
            return .map(other + [stamp, pad(left - head)])
        }
        throw C2PAError.signing("the time-stamp token (\(token.count) bytes) does not fit the \(reserve) bytes reserved for it")
    }

    private static func pad(_ count: Int) -> CBOR.Pair {
        CBOR.Pair(.text("pad"), .bytes([UInt8](repeating: 0, count: count)))
    }
}
