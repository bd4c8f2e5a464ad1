import LensCrypto
import XCTest

final class DigestTests: XCTestCase {
    private let vectors: [(DigestAlgorithm, String, String)] = [
        (.sha256, "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (.sha256, "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (.sha384, "abc", "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"),
        (.sha384, "", "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b"),
        (.sha512, "abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
        (.sha512, "", "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"),
    ]

    func testKnownVectors() {
        for (algorithm, input, expected) in vectors {
            let bytes = Array(input.utf8)
            XCTAssertEqual(Digest.hash(bytes, algorithm: algorithm).hex, expected, "\(algorithm) of \"\(input)\"")
            XCTAssertEqual(bytes.withUnsafeBytes { Digest.hash($0, algorithm: algorithm) }.hex, expected)

            let hasher = Hasher(algorithm)
            hasher.update(bytes)
            XCTAssertEqual(hasher.finalize().hex, expected, "streaming \(algorithm) of \"\(input)\"")
        }
    }

    func testDefaultIsSHA256() {
        XCTAssertEqual(Digest.hash(Array("abc".utf8)), Digest.hash(Array("abc".utf8), algorithm: .sha256))
        let hasher = Hasher()
        hasher.update(Array("abc".utf8))
        XCTAssertEqual(hasher.finalize(), Digest.hash(Array("abc".utf8), algorithm: .sha256))
    }

    func testOutputSizes() {
        for algorithm in DigestAlgorithm.allCases {
            XCTAssertEqual(Digest.hash([1, 2, 3], algorithm: algorithm).count, algorithm.outputSize)
        }
        XCTAssertEqual(DigestAlgorithm.allCases.map(\.outputSize), [32, 48, 64])
    }

    func testStreamingMatchesOneShotOverRandomChunks() {
        let data = [UInt8].random(count: 20_000)
        for algorithm in DigestAlgorithm.allCases {
            let expected = Digest.hash(data, algorithm: algorithm)
            for round in 0..<20 {
                let hasher = Hasher(algorithm)
                var start = 0
                var useRawBuffer = round.isMultiple(of: 2)
                while start < data.count {
                    let end = min(data.count, start + Int.random(in: 0...3000))
                    if useRawBuffer {
                        data[start..<end].withUnsafeBytes { hasher.update($0) }
                    } else {
                        hasher.update(Array(data[start..<end]))
                    }
                    useRawBuffer.toggle()
                    start = end
                }
                XCTAssertEqual(hasher.finalize(), expected, "\(algorithm) round \(round)")
            }
        }
    }

    func testAgreesWithOpenSSLCLI() throws {
        let data = [UInt8].random(count: 5000)
        for algorithm in DigestAlgorithm.allCases {
            let result = try OpenSSLCLI.succeed(["dgst", "-\(algorithm.rawValue)", "-binary"], input: data)
            XCTAssertEqual(result.output, Digest.hash(data, algorithm: algorithm))
        }
    }
}
