import LensCrypto

enum DataHash {
    /// The hash of `asset` minus the exclusions, or nil when they overlap or leave the asset.
    static func compute(_ asset: [UInt8], excluding exclusions: [DataHashAssertion.Exclusion],
                        algorithm: DigestAlgorithm) -> [UInt8]? {
        asset.withUnsafeBytes { compute($0, excluding: exclusions, algorithm: algorithm) }
    }

    static func compute(_ raw: UnsafeRawBufferPointer, excluding exclusions: [DataHashAssertion.Exclusion],
                        algorithm: DigestAlgorithm) -> [UInt8]? {
        let hasher = Hasher(algorithm)
        var position = 0
        for exclusion in exclusions.sorted(by: { $0.start < $1.start }) {
            guard exclusion.start >= position, exclusion.length <= raw.count - exclusion.start else { return nil }
            hasher.update(UnsafeRawBufferPointer(rebasing: raw[position..<exclusion.start]))
            position = exclusion.start + exclusion.length
        }
        hasher.update(UnsafeRawBufferPointer(rebasing: raw[position...]))
        return hasher.finalize()
    }
}
