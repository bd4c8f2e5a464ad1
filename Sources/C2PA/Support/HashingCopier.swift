/// Copies bytes to an output file's current position, hashing what the caller asks for on the way.
/// Double-buffered: while a `BackgroundWriter` writes one buffer, the next is read and hashed, so
/// signing a file costs about what hashing it costs.
final class HashingCopier {
    private let buffers: [UnsafeMutableRawBufferPointer]
    private var index = 0
    private let writer: BackgroundWriter
    private var finished = false

    /// 4 MiB buffers: on a busy 2-core machine, 1 MiB hand-offs between the threads cost a third
    /// more than the hash itself on a 52 MB MP4 (4 MiB: a quarter).
    init(output: borrowing POSIXFile, bufferSize: Int = 4 << 20) throws {
        writer = try BackgroundWriter(output: output)
        buffers = (0..<2).map { _ in UnsafeMutableRawBufferPointer.allocate(byteCount: max(bufferSize, 4096), alignment: 64) }
    }

    deinit {
        // The writer must be done with the buffers before they are freed, error or not.
        if !finished { try? writer.finish() }
        buffers.forEach { $0.deallocate() }
    }

    /// Copies `range` of `input` (read at those offsets), or with nil everything from its current
    /// position to its end.
    func copy(from input: borrowing POSIXFile, range: Range<Int>? = nil, hashingInto hasher: BMFFHasher?) throws {
        var position = range?.lowerBound ?? 0
        while range.map({ position < $0.upperBound }) ?? true {
            let buffer = buffers[index]
            let n: Int
            if let range {
                n = try input.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, range.upperBound - position)]),
                                   at: position)
                guard n > 0 else { throw C2PAError.malformed("\(input.path) ends at \(position), before \(range.upperBound)") }
            } else {
                n = try input.read(into: buffer)
                if n == 0 { break }
            }
            try emit(UnsafeRawBufferPointer(rebasing: buffer[..<n]), hashingInto: hasher)
            position += n
        }
    }

    /// Writes bytes held in memory, in order with the copied ones.
    func write(_ bytes: [UInt8], hashingInto hasher: BMFFHasher?) throws {
        try bytes.withUnsafeBytes { raw in
            var start = 0
            while start < raw.count {
                let buffer = buffers[index]
                let n = min(buffer.count, raw.count - start)
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[start..<(start + n)]))
                try emit(UnsafeRawBufferPointer(rebasing: buffer[..<n]), hashingInto: hasher)
                start += n
            }
        }
    }

    /// Waits until everything is written.
    func finish() throws {
        finished = true
        try writer.finish()
    }

    private func emit(_ chunk: UnsafeRawBufferPointer, hashingInto hasher: BMFFHasher?) throws {
        try hasher?.update(chunk)
        try writer.write(chunk)
        index ^= 1
    }
}
