import CSystemd
import Glibc

/// The C vtable sd-bus reads an exported interface from, built at run time from its
/// description. It owns the entry array and every string the entries point at, so it must
/// outlive the slot registered with it.
final class VTable {
    let entries: UnsafeMutablePointer<sd_bus_vtable>
    private var strings: [UnsafeMutablePointer<CChar>] = []

    /// Every method and writable property is UNPRIVILEGED: without it sd-bus itself refuses
    /// callers that are not root or the service's own uid, and authorization is the daemon's job,
    /// done on credentials the bus supplies.
    init(_ interface: InterfaceDescription) throws {
        try Self.validate(interface)
        let count = interface.methods.count + interface.properties.count + interface.signals.count + 2
        entries = lens_vtable_allocate(count)
        var next = entries
        lens_vtable_set_start(next, 0)
        for method in interface.methods {
            next += 1
            lens_vtable_set_method(next, keep(method.name), keep(method.inSignature), keep(method.outSignature),
                                   keep(names: method.inNames + method.outNames),
                                   Trampolines.method, UInt64(SD_BUS_VTABLE_UNPRIVILEGED))
        }
        for property in interface.properties {
            next += 1
            let flags = Self.flags(property.emitsChange) | (property.writable ? UInt64(SD_BUS_VTABLE_UNPRIVILEGED) : 0)
            lens_vtable_set_property(next, keep(property.name), keep(property.signature), Trampolines.getProperty,
                                     property.writable ? Trampolines.setProperty : nil, flags)
        }
        for signal in interface.signals {
            next += 1
            lens_vtable_set_signal(next, keep(signal.name), keep(signal.signature), keep(names: signal.names), 0)
        }
        lens_vtable_set_end(next + 1)
    }

    deinit {
        lens_vtable_free(entries)
        for string in strings {
            free(string)
        }
    }

    private static func flags(_ emitsChange: InterfaceDescription.Property.EmitsChange) -> UInt64 {
        switch emitsChange {
        case .yes: UInt64(SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE)
        case .invalidates: UInt64(SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION)
        case .const: UInt64(SD_BUS_VTABLE_PROPERTY_CONST)
        case .no: 0
        }
    }

    private func keep(_ string: String) -> UnsafePointer<CChar> {
        let copy = strdup(string)!
        strings.append(copy)
        return UnsafePointer(copy)
    }

    /// sd-bus's argument-name list: each name NUL-terminated, back to back, then one more NUL
    /// ("in1\0in2\0out1\0" + "\0"). With no names at all it is the empty string.
    private func keep(names: [String]) -> UnsafePointer<CChar> {
        let bytes = Array(names.map { Array($0.utf8) + [0] }.joined()) + [0]
        let copy = malloc(bytes.count)!.bindMemory(to: CChar.self, capacity: bytes.count)
        bytes.withUnsafeBytes { UnsafeMutableRawPointer(copy).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        strings.append(copy)
        return UnsafePointer(copy)
    }

    /// sd-bus checks names and signatures too, but answers only EINVAL; these say which member is wrong.
    private static func validate(_ interface: InterfaceDescription) throws {
        func arguments(_ signature: String, of member: String) throws -> Int {
            guard let types = Signature.completeTypes(signature) else {
                throw BusError.invalidArgs("\(interface.name).\(member): malformed signature '\(signature)'")
            }
            return types.count
        }
        func checkNames(_ names: [String], count: Int, of member: String) throws {
            guard names.count == count else {
                throw BusError.invalidArgs("\(interface.name).\(member): \(names.count) names for \(count) arguments; "
                                           + "name every argument or none")
            }
        }
        for method in interface.methods {
            let inputs = try arguments(method.inSignature, of: method.name)
            let outputs = try arguments(method.outSignature, of: method.name)
            if !(method.inNames + method.outNames).isEmpty {
                try checkNames(method.inNames, count: inputs, of: method.name)
                try checkNames(method.outNames, count: outputs, of: method.name)
            }
        }
        for property in interface.properties {
            guard try arguments(property.signature, of: property.name) == 1 else {
                throw BusError.invalidArgs("\(interface.name).\(property.name): a property has exactly one type")
            }
        }
        for signal in interface.signals {
            let count = try arguments(signal.signature, of: signal.name)
            if !signal.names.isEmpty {
                try checkNames(signal.names, count: count, of: signal.name)
            }
        }
    }
}
