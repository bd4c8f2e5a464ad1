/// Who made the claim: the software, its version, the operating system, and the spec it follows.
public struct ClaimGeneratorInfo: Sendable, Equatable {
    public var name: String
    public var version: String
    public var operatingSystem: String?
    public var specVersion: String

    /// The C2PA specification lensd's manifests follow, as SemVer: the Conformance Program's 2.4
    /// rubric (`mandatory_spec_version`) wants it, and strict 2.4 validators want its SemVer form.
    public static let implementedSpecVersion = "2.4.0"

    public init(name: String, version: String, operatingSystem: String? = nil, specVersion: String = implementedSpecVersion) {
        self.name = name
        self.version = version
        self.operatingSystem = operatingSystem
        self.specVersion = specVersion
    }

    var cbor: CBOR {
        var entries: [(String, CBOR)] = [("name", .text(name)), ("version", .text(version))]
        if let operatingSystem { entries.append(("operating_system", .text(operatingSystem))) }
        entries.append(("specVersion", .text(specVersion)))
        return .textMap(entries)
    }
}
