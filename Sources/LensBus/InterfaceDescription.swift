/// One exported interface as a table: every method, property and signal with its signature and
/// argument names, so the introspection XML sd-bus generates can match a hand-written contract.
public struct InterfaceDescription: Sendable {
    public var name: String
    public var methods: [Method]
    public var properties: [Property]
    public var signals: [Signal]

    public init(name: String, methods: [Method] = [], properties: [Property] = [], signals: [Signal] = []) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }

    /// Argument names are all-or-nothing per member: either every in- and out-argument has one,
    /// or none does (sd-bus cannot tell which argument an incomplete list belongs to).
    public struct Method: Sendable {
        public var name: String
        public var inSignature: String
        public var inNames: [String]
        public var outSignature: String
        public var outNames: [String]

        public init(name: String, inSignature: String = "", inNames: [String] = [],
                    outSignature: String = "", outNames: [String] = []) {
            self.name = name
            self.inSignature = inSignature
            self.inNames = inNames
            self.outSignature = outSignature
            self.outNames = outNames
        }

        /// Arguments as name: signature pairs in order, e.g.
        /// `Method("FocusAt", in: ["x": "d", "y": "d"], out: ["x": "d", "y": "d"])`.
        public init(_ name: String, in inputs: KeyValuePairs<String, String> = [:],
                    out outputs: KeyValuePairs<String, String> = [:]) {
            self.init(name: name,
                      inSignature: inputs.map(\.value).joined(), inNames: inputs.map(\.key),
                      outSignature: outputs.map(\.value).joined(), outNames: outputs.map(\.key))
        }
    }

    public struct Property: Sendable {
        /// How the property announces changes; maps to the EmitsChangedSignal annotation.
        public enum EmitsChange: Sendable {
            /// PropertiesChanged carries the new value (the default: no annotation).
            case yes
            /// PropertiesChanged lists the name only.
            case invalidates
            /// The value never changes.
            case const
            /// No PropertiesChanged is sent.
            case no
        }

        public var name: String
        public var signature: String
        public var writable: Bool
        public var emitsChange: EmitsChange

        public init(name: String, signature: String, writable: Bool = false, emitsChange: EmitsChange = .yes) {
            self.name = name
            self.signature = signature
            self.writable = writable
            self.emitsChange = emitsChange
        }
    }

    public struct Signal: Sendable {
        public var name: String
        public var signature: String
        public var names: [String]

        public init(name: String, signature: String = "", names: [String] = []) {
            self.name = name
            self.signature = signature
            self.names = names
        }

        /// Arguments as name: signature pairs in order, e.g. `Signal("FocusedOnPoint", ["x": "d", "y": "d"])`.
        public init(_ name: String, _ arguments: KeyValuePairs<String, String> = [:]) {
            self.init(name: name, signature: arguments.map(\.value).joined(), names: arguments.map(\.key))
        }
    }
}
