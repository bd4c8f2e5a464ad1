import CLinux
import Glibc

/// The write end of a preview pipe. Non-blocking: frames go out whole and in order, never
/// interleaved; when the pipe is full, the rest of the frame under way is kept and finished
/// before any later frame starts, so a reader that stops reading costs one frame of memory.
/// Used from one thread at a time.
final class PreviewPipe {
    /// The reader closed its end (EPIPE): the preview is over.
    struct ReaderGone: Error {}

    /// -1 once closed.
    private var writeEnd: Int32
    private var unfinished: [UInt8] = []
    private var offset = 0

    /// The pipe, and its read end for the client (the caller owns and closes that one).
    static func make() throws -> (pipe: PreviewPipe, readEnd: Int32) {
        var fds: [Int32] = [-1, -1]
        _ = try Syscalls.retrying("pipe2") { lens_pipe_nonblocking_writer(&fds) }
        return (PreviewPipe(writeEnd: fds[1]), fds[0])
    }

    private init(writeEnd: Int32) {
        self.writeEnd = writeEnd
    }

    deinit { close() }

    /// Writes on with the unfinished frame as far as the pipe takes it: true once none is left
    /// (`completed` says whether this call finished one).
    func finishUnfinished() throws -> (clear: Bool, completed: Bool) {
        guard offset < unfinished.count else { return (true, false) }
        try writeSome()
        return (offset == unfinished.count, offset == unfinished.count)
    }

    /// Starts `frame`, which requires the pipe to be clear; true when it went out whole at once.
    func start(_ frame: [UInt8]) throws -> Bool {
        precondition(offset == unfinished.count, "a preview frame started before the last one was finished")
        unfinished = frame
        offset = 0
        try writeSome()
        return offset == unfinished.count
    }

    /// The reader sees end of file (after whatever part of a frame was written).
    func close() {
        if writeEnd >= 0 { Glibc.close(writeEnd) }
        writeEnd = -1
        unfinished = []
        offset = 0
    }

    private func writeSome() throws {
        let fd = writeEnd
        guard fd >= 0 else { throw ReaderGone() }
        while offset < unfinished.count {
            let written = unfinished.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written >= 0 {
                offset += written
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN: return
            case EPIPE: throw ReaderGone()
            default: throw Syscalls.Failure(call: "write", path: "the preview pipe", errno: errno)
            }
        }
        // A frame written whole needs no copy kept.
        unfinished = []
        offset = 0
    }
}
