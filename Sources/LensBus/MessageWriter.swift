import CSystemd

/// Appends BusValues to an sd_bus_message being built (sd_bus_message_append is variadic and
/// cannot be called from Swift, so values go in one basic type or container at a time).
struct MessageWriter {
    private let message: OpaquePointer

    init(_ message: OpaquePointer) {
        self.message = message
    }

    func append(_ values: [BusValue]) throws {
        for value in values {
            try append(value, depth: 0)
        }
    }

    func append(_ value: BusValue) throws {
        try append(value, depth: 0)
    }

    private func append(_ value: BusValue, depth: Int) throws {
        guard depth < Signature.maximumDepth else {
            throw BusError.invalidArgs("values nested deeper than \(Signature.maximumDepth) levels")
        }
        switch value {
        case .byte(let byte): try appendBasic("y", byte)
        case .bool(let bool): try appendBasic("b", Int32(bool ? 1 : 0))  // sd-bus bools are ints
        case .int16(let number): try appendBasic("n", number)
        case .uint16(let number): try appendBasic("q", number)
        case .int32(let number): try appendBasic("i", number)
        case .uint32(let number): try appendBasic("u", number)
        case .int64(let number): try appendBasic("x", number)
        case .uint64(let number): try appendBasic("t", number)
        case .double(let number): try appendBasic("d", number)
        case .fd(let fd): try appendBasic("h", fd)  // sd-bus dups it; the caller keeps its own
        case .string(let string): try appendString("s", string)
        case .objectPath(let path): try appendString("o", path)
        case .signature(let signature): try appendString("g", signature)
        case .byteArray(let bytes):
            _ = try bytes.withUnsafeBytes { buffer in
                try check(sd_bus_message_append_array(message, code("y"), buffer.baseAddress, buffer.count),
                          "appending ay")
            }
        case .array(let elementSignature, let elements):
            try inContainer("a", elementSignature) {
                for element in elements {
                    try expect(element, toHave: elementSignature, in: "array")
                    try append(element, depth: depth + 1)
                }
            }
        case .dictionary(let keySignature, let valueSignature, let entries):
            try inContainer("a", "{\(keySignature)\(valueSignature)}") {
                for entry in entries {
                    try expect(entry.key, toHave: keySignature, in: "dictionary key")
                    try expect(entry.value, toHave: valueSignature, in: "dictionary value")
                    try inContainer("e", keySignature + valueSignature) {
                        try append(entry.key, depth: depth + 2)
                        try append(entry.value, depth: depth + 2)
                    }
                }
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw BusError.invalidArgs("D-Bus has no empty structures") }
            try inContainer("r", fields.signature) {
                for field in fields {
                    try append(field, depth: depth + 1)
                }
            }
        case .variant(let inner):
            try inContainer("v", inner.signature) {
                try append(inner, depth: depth + 1)
            }
        }
    }

    private func code(_ type: Unicode.Scalar) -> CChar {
        CChar(UInt8(ascii: type))
    }

    private func appendBasic<T: BitwiseCopyable>(_ type: Unicode.Scalar, _ value: T) throws {
        try withUnsafePointer(to: value) { pointer in
            _ = try check(sd_bus_message_append_basic(message, code(type), pointer), "appending '\(type)'")
        }
    }

    /// For string types sd-bus takes the characters themselves, not a pointer to them.
    private func appendString(_ type: Unicode.Scalar, _ string: String) throws {
        guard !string.utf8.contains(0) else {
            throw BusError.invalidArgs("D-Bus strings cannot contain NUL")
        }
        _ = try string.withCString { characters in
            try check(sd_bus_message_append_basic(message, code(type), characters), "appending '\(type)'")
        }
    }

    private func inContainer(_ type: Unicode.Scalar, _ contents: String, _ body: () throws -> Void) throws {
        try check(sd_bus_message_open_container(message, code(type), contents), "opening '\(type)\(contents)'")
        try body()
        try check(sd_bus_message_close_container(message), "closing '\(type)\(contents)'")
    }

    /// sd-bus would also refuse a mismatch, but only with a bare -ENXIO.
    private func expect(_ value: BusValue, toHave signature: String, in place: String) throws {
        guard value.signature == signature else {
            throw BusError.invalidArgs("\(place) of type '\(value.signature)' where '\(signature)' is declared")
        }
    }
}
