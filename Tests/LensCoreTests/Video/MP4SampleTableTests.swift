@testable import LensCore
@testable import LensMedia
import XCTest

/// The stbl builder on its own: the choice of stco/co64 and the run-length tables, without
/// writing gigabytes.
final class MP4SampleTableTests: XCTestCase {
    private let samples = [SampleRecord(size: 100, duration: 3000, isSync: true),
                           SampleRecord(size: 50, duration: 3000, isSync: false)]

    func testOffsetsBelow4GiBUseStco() throws {
        let table = try parse(SampleTable(chunks: [Chunk(offset: 0x1_0000, samples: samples),
                                                   Chunk(offset: UInt64(UInt32.max), samples: samples)]))
        XCTAssertNil(table["co64"])
        XCTAssertEqual(table["stco"], [2, 0x1_0000, UInt64(UInt32.max)])
    }

    func testAnOffsetAt4GiBSwitchesToCo64() throws {
        let table = try parse(SampleTable(chunks: [Chunk(offset: 0x1_0000, samples: samples),
                                                   Chunk(offset: 1 << 32, samples: samples),
                                                   Chunk(offset: 5 << 32 + 7, samples: samples)]))
        XCTAssertNil(table["stco"])
        XCTAssertEqual(table["co64"], [3, 0x1_0000, 1 << 32, 5 << 32 + 7])
    }

    func testTablesAreRunLengthEncodedAndStssListsSyncSamples() throws {
        let three = samples + [SampleRecord(size: 70, duration: 6000, isSync: false)]
        let table = try parse(SampleTable(chunks: [Chunk(offset: 100, samples: three), Chunk(offset: 500, samples: three),
                                                   Chunk(offset: 900, samples: samples)]))
        XCTAssertEqual(table["stts"], [5, 2, 3000, 1, 6000, 2, 3000, 1, 6000, 2, 3000])
        XCTAssertEqual(table["stss"], [3, 1, 4, 7])
        XCTAssertEqual(table["stsc"], [2, 1, 3, 1, 3, 2, 1])
        XCTAssertEqual(table["stsz"], [0, 8, 100, 50, 70, 100, 50, 70, 100, 50])
    }

    func testAllSyncSamplesLeaveOutStss() throws {
        let table = try parse(SampleTable(chunks: [Chunk(offset: 100, samples: [samples[0], samples[0]])]))
        XCTAssertNil(table["stss"])
        XCTAssertEqual(table["stts"], [1, 2, 3000])
    }

    /// Every FullBox of the built stbl body as its integer fields after version/flags (co64 entries as u64).
    private func parse(_ table: SampleTable) throws -> [String: [UInt64]] {
        var builder = BoxBuilder()
        table.write(sampleDescription: [], into: &builder)
        let bytes = builder.bytes
        var reader = BoxReader(bytes)
        var fields: [String: [UInt64]] = [:]
        for box in try reader.children() {
            var (body, _, _) = try BoxReader.fullBox(bytes, box)
            var values: [UInt64] = [UInt64(try body.u32())]
            while body.remaining > 0 { values.append(box.type == "co64" ? try body.u64() : UInt64(try body.u32())) }
            fields[box.type] = values
        }
        return fields
    }
}
