import CLinux

/// A capture frees buffers of a whole frame (6 MB at 1080p) on the camera and signing threads.
/// glibc raises its mmap threshold after the first such free, so later ones came from the
/// threads' arenas and stayed there as resident memory the daemon no longer used (malloc_trim
/// does not shrink an arena's top): measured, 6.4 MB of lensd's RSS after two captures, for good.
/// A fixed threshold keeps every block of 1 MB or more in a mapping of its own, unmapped when freed.
public enum FreedMemory {
    public static let largeBlock = 1 << 20

    /// Call before any thread starts.
    public static func returnLargeBlocksWhenFreed() {
        _ = lens_malloc_mmap_threshold(Int32(largeBlock))
    }
}
