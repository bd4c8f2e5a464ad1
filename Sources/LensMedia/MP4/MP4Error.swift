import Glibc
import LensSystem

/// Why an MP4 could not be written, finalized or recovered.
public struct MP4Error: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// A track or sample the muxer cannot write (e.g. an empty fragment, a 0×0 track).
        case invalidArgument
        /// The file is not a recording journal or finalized file written by lensd.
        case notLensdFile
        /// A lensd-shaped file whose boxes do not parse.
        case malformed
        /// A journal without a single complete fragment: there is nothing to keep.
        case noCompleteFragment
        /// The writer was used after `finish()`.
        case finished
        /// A system call failed; `errno` says which way (ENOSPC: the disk is full).
        case io
    }

    public let kind: Kind
    public let message: String
    public let errno: Errno?

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
        errno = nil
    }

    init(_ failure: SystemError, while operation: String) {
        kind = .io
        message = "\(operation): \(failure)"
        errno = failure.errno
    }

    public var description: String {
        message
    }

    /// Runs `body`, turning a failed system call into an `.io` MP4Error about `operation`.
    static func io<Result: ~Copyable>(_ operation: String, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let failure as SystemError {
            throw MP4Error(failure, while: operation)
        }
    }
}
