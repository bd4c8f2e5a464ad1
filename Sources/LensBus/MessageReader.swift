import CSystemd
import Glibc
import LensSystem

/// Reads BusValues out of an sd_bus_message, driven by the message's own signature
/// (sd-bus's read functions are variadic and cannot be called from Swift).
struct MessageReader {
    /// Who owns the fds a message carries once they are read.
    enum Descriptors {
        /// The message does: they are valid while it lives and sd-bus closes them with it. What a
        /// handler is called with (a call, a property write, a signal) is read this way, so a
        /// descriptor no handler takes — one slipped into an option, sent to a refused call —
        /// is closed whatever the outcome; a handler that keeps one duplicates it.
        case borrowed
        /// The reader does: each is duplicated (F_DUPFD_CLOEXEC) and belongs to the receiver,
        /// who must close it. A reply's fds are read this way: the caller asked for them.
        case duplicated
    }

    private let message: OpaquePointer
    private let descriptors: Descriptors
    /// fds duplicated so far; closed again if reading fails halfway, so nothing leaks.
    private var duplicatedFDs: [Int32] = []

    private init(_ message: OpaquePointer, descriptors: Descriptors) {
        self.message = message
        self.descriptors = descriptors
    }

    /// Every value from the current position to the end of the current container.
    static func readRemaining(_ message: OpaquePointer, descriptors: Descriptors) throws -> [BusValue] {
        var reader = MessageReader(message, descriptors: descriptors)
        return try reader.closingFDsOnFailure { try $0.readRemaining(depth: 0) }
    }

    /// Exactly one value at the current position (a property value inside its variant), its fds borrowed.
    static func readOne(_ message: OpaquePointer) throws -> BusValue {
        var reader = MessageReader(message, descriptors: .borrowed)
        return try reader.closingFDsOnFailure { reader in
            guard let value = try reader.readNext(depth: 0) else {
                throw BusError.invalidArgs("expected a value, found the end of the message")
            }
            return value
        }
    }

    private mutating func closingFDsOnFailure<T>(_ body: (inout MessageReader) throws -> T) throws -> T {
        do {
            return try body(&self)
        } catch {
            for fd in duplicatedFDs { try? FileDescriptor(adopting: fd).close() }
            throw error
        }
    }

    private mutating func readRemaining(depth: Int) throws -> [BusValue] {
        var values: [BusValue] = []
        while let value = try readNext(depth: depth) {
            values.append(value)
        }
        return values
    }

    /// The next value, or nil at the end of the current container.
    private mutating func readNext(depth: Int) throws -> BusValue? {
        var type: CChar = 0
        var contentsPointer: UnsafePointer<CChar>?
        guard try check(sd_bus_message_peek_type(message, &type, &contentsPointer), "peeking at a message") > 0 else {
            return nil
        }
        guard depth < Signature.maximumDepth else {
            throw BusError.invalidArgs("values nested deeper than \(Signature.maximumDepth) levels")
        }
        let contents = contentsPointer.map { String(cString: $0) } ?? ""
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "y"): return .byte(try readBasic(type, initial: UInt8(0)))
        case UInt8(ascii: "b"): return .bool(try readBasic(type, initial: Int32(0)) != 0)  // sd-bus bools are ints
        case UInt8(ascii: "n"): return .int16(try readBasic(type, initial: Int16(0)))
        case UInt8(ascii: "q"): return .uint16(try readBasic(type, initial: UInt16(0)))
        case UInt8(ascii: "i"): return .int32(try readBasic(type, initial: Int32(0)))
        case UInt8(ascii: "u"): return .uint32(try readBasic(type, initial: UInt32(0)))
        case UInt8(ascii: "x"): return .int64(try readBasic(type, initial: Int64(0)))
        case UInt8(ascii: "t"): return .uint64(try readBasic(type, initial: UInt64(0)))
        case UInt8(ascii: "d"): return .double(try readBasic(type, initial: Double(0)))
        case UInt8(ascii: "s"): return .string(try readString(type))
        case UInt8(ascii: "o"): return .objectPath(try readString(type))
        case UInt8(ascii: "g"): return .signature(try readString(type))
        case UInt8(ascii: "h"): return .fd(try readFD())
        case UInt8(ascii: "a"): return try readArray(contents: contents, depth: depth)
        case UInt8(ascii: "v"):
            let inner = try inContainer(type, contents) { reader in
                guard let value = try reader.readNext(depth: depth + 1) else {
                    throw BusError.invalidArgs("empty variant")
                }
                return value
            }
            return .variant(inner)
        case UInt8(ascii: "r"):
            return .structure(try inContainer(type, contents) { try $0.readRemaining(depth: depth + 1) })
        default:
            throw BusError.invalidArgs("unsupported D-Bus type '\(Character(Unicode.Scalar(UInt8(bitPattern: type))))'")
        }
    }

    private func readBasic<T: BitwiseCopyable>(_ type: CChar, initial: T) throws -> T {
        var value = initial
        try withUnsafeMutablePointer(to: &value) { pointer in
            _ = try check(sd_bus_message_read_basic(message, type, pointer), "reading a message")
        }
        return value
    }

    private func readString(_ type: CChar) throws -> String {
        let pointer = try readBasic(type, initial: UnsafePointer<CChar>?.none)
        return pointer.map { String(cString: $0) } ?? ""
    }

    /// The message owns the fd it carries; with `.duplicated` the receiver gets its own duplicate.
    private mutating func readFD() throws -> Int32 {
        let borrowed = try readBasic(CChar(UInt8(ascii: "h")), initial: Int32(-1))
        guard descriptors == .duplicated else { return borrowed }
        let owned = fcntl(borrowed, F_DUPFD_CLOEXEC, 3)
        guard owned >= 0 else { throw BusError(errno: -errno, "duplicating a received fd") }
        duplicatedFDs.append(owned)
        return owned
    }

    private mutating func readArray(contents: String, depth: Int) throws -> BusValue {
        if contents == "y" {
            var pointer: UnsafeRawPointer?
            var size = 0
            try check(sd_bus_message_read_array(message, CChar(UInt8(ascii: "y")), &pointer, &size), "reading ay")
            return .byteArray(pointer.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? [])
        }
        let arrayType = CChar(UInt8(ascii: "a"))
        if contents.hasPrefix("{") {
            let inner = String(contents.dropFirst().dropLast())  // "{sv}" → "sv"
            let keySignature = String(inner.prefix(1))
            let valueSignature = String(inner.dropFirst())
            let entries = try inContainer(arrayType, contents) { reader in
                var entries: [DictEntry] = []
                while try check(sd_bus_message_enter_container(reader.message, CChar(UInt8(ascii: "e")), inner),
                                "entering a dictionary entry") > 0 {
                    guard let key = try reader.readNext(depth: depth + 2),
                          let value = try reader.readNext(depth: depth + 2) else {
                        throw BusError.invalidArgs("incomplete dictionary entry")
                    }
                    try check(sd_bus_message_exit_container(reader.message), "leaving a dictionary entry")
                    entries.append(DictEntry(key: key, value: value))
                }
                return entries
            }
            return .dictionary(keySignature: keySignature, valueSignature: valueSignature, entries)
        }
        let elements = try inContainer(arrayType, contents) { try $0.readRemaining(depth: depth + 1) }
        return .array(elementSignature: contents, elements)
    }

    private mutating func inContainer<T>(_ type: CChar, _ contents: String,
                                         _ body: (inout MessageReader) throws -> T) throws -> T {
        try check(sd_bus_message_enter_container(message, type, contents), "entering a container")
        let result = try body(&self)
        try check(sd_bus_message_exit_container(message), "leaving a container")
        return result
    }
}
