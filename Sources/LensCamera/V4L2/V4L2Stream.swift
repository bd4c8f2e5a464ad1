import CV4L2
import Glibc
import LensSystem

/// mmap streaming on an open device: buffers requested, mapped (through libv4l2, so converted
/// frames are what is read), queued, and the stream on. Stops and unmaps on deinit.
final class V4L2Stream {
    private let device: V4L2Device
    private var buffers: [UnsafeMutableRawBufferPointer] = []
    private var streaming = false

    /// A dequeued frame; valid until `requeue`.
    struct Frame {
        var index: UInt32
        var bytes: UnsafeRawBufferPointer
        var sequence: UInt32
        /// Seconds on the buffer's clock (CLOCK_MONOTONIC for capture drivers), or the time of
        /// dequeuing where the driver left it zero.
        var timestamp: Double
    }

    init(device: V4L2Device, bufferCount: UInt32 = 4) throws {
        self.device = device
        var request = v4l2_requestbuffers()
        request.count = bufferCount
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try device.ioctl(CV4L2_VIDIOC_REQBUFS, &request, "VIDIOC_REQBUFS")
        for index in 0..<request.count {
            var buffer = Self.buffer(index: index)
            try device.ioctl(CV4L2_VIDIOC_QUERYBUF, &buffer, "VIDIOC_QUERYBUF")
            let length = Int(buffer.length)
            let address = v4l2_mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, device.fd, Int64(buffer.m.offset))
            guard let address, address != MAP_FAILED else { throw SystemError("v4l2_mmap", errno: .current) }
            buffers.append(UnsafeMutableRawBufferPointer(start: address, count: length))
            try requeue(index)
        }
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try device.ioctl(CV4L2_VIDIOC_STREAMON, &type, "VIDIOC_STREAMON")
        streaming = true
    }

    deinit {
        if streaming {
            var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
            try? device.ioctl(CV4L2_VIDIOC_STREAMOFF, &type, "VIDIOC_STREAMOFF")
        }
        for buffer in buffers { v4l2_munmap(buffer.baseAddress, buffer.count) }
    }

    /// Returns every frame already waiting to the driver, so the next dequeue is a frame taken
    /// after this call: a photo shows the moment it was asked for, not a queued one.
    func discardQueued() throws {
        while try wait(timeout: 0) {
            if let frame = try dequeue() { try requeue(frame.index) }
        }
    }

    /// Waits up to `timeout` milliseconds for a good frame; nil on timeout.
    func next(timeout: Int32) throws -> Frame? {
        while try wait(timeout: timeout) {
            if let frame = try dequeue() { return frame }
        }
        return nil
    }

    /// The driver flagged the stream broken (POLLERR without a frame), e.g. the device is gone.
    var hasFailed: Bool { (try? wait(timeout: 0)) == nil }

    /// True when a frame is ready; throws when the stream is broken.
    private func wait(timeout: Int32) throws -> Bool {
        let events: Int16
        do {
            events = try FileDescriptor.borrowing(device.fd) { (file) throws(SystemError) in try file.poll(for: Int16(POLLIN), milliseconds: timeout) }
        } catch {
            throw SystemError("poll", errno: error.errno)
        }
        if events & Int16(POLLIN) != 0 { return true }
        if events & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { throw SystemError("poll", errno: Errno(rawValue: ENODEV)) }
        return false
    }

    func requeue(_ index: UInt32) throws {
        var buffer = Self.buffer(index: index)
        try device.ioctl(CV4L2_VIDIOC_QBUF, &buffer, "VIDIOC_QBUF")
    }

    /// Called once poll() reported a frame; nil for a buffer the driver marked bad (requeued).
    private func dequeue() throws -> Frame? {
        var buffer = Self.buffer(index: 0)
        try device.ioctl(CV4L2_VIDIOC_DQBUF, &buffer, "VIDIOC_DQBUF")
        guard buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) == 0 else {
            try requeue(buffer.index)
            return nil
        }
        let mapped = buffers[Int(buffer.index)]
        return Frame(index: buffer.index,
                     bytes: UnsafeRawBufferPointer(rebasing: mapped[..<min(Int(buffer.bytesused), mapped.count)]),
                     sequence: buffer.sequence, timestamp: Self.timestamp(of: buffer))
    }

    private static func timestamp(of buffer: v4l2_buffer) -> Double {
        let time = buffer.timestamp
        guard time.tv_sec == 0 && time.tv_usec == 0 else { return Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
    }

    private static func buffer(index: UInt32) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        return buffer
    }
}
