import Foundation
import Glibc
import LensBus

/// What a handler reads out of a call: the bytes choose the values a hostile client could send
/// (every D-Bus type, nested containers, descriptors anywhere, options with any type), lensd's
/// message writer and reader build and read them back through a sealed sd-bus message, and the
/// read values must have the sent shape while no descriptor outlives the message.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = Input(Array(UnsafeBufferPointer(start: data, count: size)))
    var values: [BusValue] = []
    while !input.isEmpty, values.count < 8 { values.append(input.value(depth: 0)) }
    let before = openDescriptors()
    guard let read = try? SealedMessage.readBack(values, { $0 }) else { return 0 }
    guard read.map(\.signature) == values.map(\.signature) else {
        fatalError("read back \(read.map(\.signature)) for \(values.map(\.signature))")
    }
    guard openDescriptors() == before else { fatalError("a descriptor outlived its message: \(values)") }
    return 0
}

/// Two descriptors every input may carry: a pipe's ends, open for the whole run.
private let pipeEnds: [Int32] = {
    var ends: [Int32] = [0, 0]
    precondition(pipe(&ends) == 0)
    return ends
}()

private func openDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
}

/// The fuzzer's bytes read as choices.
private struct Input {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    var isEmpty: Bool { bytes.isEmpty }

    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

    mutating func value(depth: Int) -> BusValue {
        let choice = byte() % (depth < 6 ? 16 : 11)
        switch choice {
        case 0: return .byte(byte())
        case 1: return .bool(byte() & 1 == 1)
        case 2: return .int32(Int32(bitPattern: word()))
        case 3: return .uint64(UInt64(word()) << 32 | UInt64(word()))
        case 4: return .double(Double(bitPattern: UInt64(word()) << 32 | UInt64(word())))
        case 5: return .string(text())
        case 6: return .objectPath("/" + text().filter { $0.isLetter })
        case 7, 8: return .fd(pipeEnds[Int(byte() & 1)])
        case 9: return .byteArray((0..<Int(byte() % 32)).map { _ in byte() })
        case 10: return .uint16(UInt16(truncatingIfNeeded: word()))
        case 11: return .variant(value(depth: depth + 1))
        case 12: return .structure((0...Int(byte() % 3)).map { _ in value(depth: depth + 1) })
        case 13:
            // An array of one basic type: descriptors, strings or numbers.
            let kind = byte() % 3
            return .array(elementSignature: ["h", "s", "u"][Int(kind)], (0..<Int(byte() % 6)).map { _ in
                kind == 0 ? .fd(pipeEnds[Int(byte() & 1)]) : kind == 1 ? .string(text()) : .uint32(word())
            })
        default:
            // Options, as OpenSession, OpenPreview and StartFaceAutoCapture take them.
            return .vardict(Dictionary((0..<Int(byte() % 5)).map { _ in (text(), value(depth: depth + 1)) },
                                       uniquingKeysWith: { first, _ in first }))
        }
    }

    private mutating func word() -> UInt32 {
        (0..<4).reduce(0) { word, _ in word << 8 | UInt32(byte()) }
    }

    /// Printable ASCII: D-Bus strings are UTF-8 without NUL.
    private mutating func text() -> String {
        String(decoding: (0..<Int(byte() % 12)).map { _ in 0x20 + byte() % 0x5f }, as: UTF8.self)
    }
}
