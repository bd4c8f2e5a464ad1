/// What the muxer remembers of each sample: enough for a trun entry and for the final stbl.
struct SampleRecord: Equatable {
    var size: UInt32
    var duration: UInt32
    var isSync: Bool
}

/// A run of samples stored back to back from `offset` (one fragment's mdat payload).
struct Chunk: Equatable {
    var offset: UInt64
    var samples: [SampleRecord]
}

/// The non-fragmented sample table of a finalized file, rebuilt from its fragments.
struct SampleTable {
    let chunks: [Chunk]

    var sampleCount: Int { chunks.reduce(0) { $0 + $1.samples.count } }

    /// In 90 kHz ticks.
    var duration: UInt64 { chunks.reduce(0) { $0 + $1.samples.reduce(0) { $0 + UInt64($1.duration) } } }

    /// stco holds 32-bit offsets; a chunk at or beyond 4 GiB needs co64.
    var needsLargeOffsets: Bool { chunks.contains { $0.offset > UInt64(UInt32.max) } }

    private var samples: [SampleRecord] { chunks.flatMap(\.samples) }

    /// stsd then stts, [stss], stsc, stsz, stco|co64: the body of `stbl`.
    func write(sampleDescription: [UInt8], into builder: inout BoxBuilder) {
        let samples = samples
        builder.append(sampleDescription)
        let durations = runs(samples.map(\.duration))
        builder.fullBox("stts") { box in
            box.u32(UInt32(durations.count))
            for run in durations { box.u32(UInt32(run.count)); box.u32(run.value) }
        }
        // Without stss every sample is sync (MJPEG), so the box is left out then.
        if samples.contains(where: { !$0.isSync }) {
            let syncNumbers = samples.indices.filter { samples[$0].isSync }
            builder.fullBox("stss") { box in
                box.u32(UInt32(syncNumbers.count))
                for index in syncNumbers { box.u32(UInt32(index + 1)) }
            }
        }
        let perChunk = runs(chunks.map { UInt32($0.samples.count) })
        builder.fullBox("stsc") { box in
            box.u32(UInt32(perChunk.count))
            var firstChunk: UInt32 = 1
            for run in perChunk {
                box.u32(firstChunk); box.u32(run.value); box.u32(1)
                firstChunk += UInt32(run.count)
            }
        }
        builder.fullBox("stsz") { box in
            box.u32(0)
            box.u32(UInt32(samples.count))
            for sample in samples { box.u32(sample.size) }
        }
        if needsLargeOffsets {
            builder.fullBox("co64") { box in
                box.u32(UInt32(chunks.count))
                for chunk in chunks { box.u64(chunk.offset) }
            }
        } else {
            builder.fullBox("stco") { box in
                box.u32(UInt32(chunks.count))
                for chunk in chunks { box.u32(UInt32(chunk.offset)) }
            }
        }
    }

    private func runs(_ values: [UInt32]) -> [(value: UInt32, count: Int)] {
        var runs: [(value: UInt32, count: Int)] = []
        for value in values {
            if runs.last?.value == value { runs[runs.count - 1].count += 1 } else { runs.append((value, 1)) }
        }
        return runs
    }
}
