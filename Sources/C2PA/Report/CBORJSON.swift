import FoundationEssentials

extension CBOR {
    /// The item as JSON, the way c2pa-rs's reports show an assertion: text-keyed maps as objects
    /// (other keys as their text), tags dropped, byte strings rendered by `bytes`.
    func json(bytes: ([UInt8]) -> JSONValue) -> JSONValue {
        switch self {
        case .unsigned(let n): return .number(Double(n))
        case .negative(let n): return .number(-1 - Double(n))
        case .bytes(let b): return bytes(b)
        case .text(let t): return .string(t)
        case .array(let items): return .array(items.map { $0.json(bytes: bytes) })
        case .map(let pairs):
            var object: [String: JSONValue] = [:]
            for pair in pairs {
                let key = pair.key.textValue ?? pair.key.intValue.map(String.init) ?? "\(pair.key)"
                object[key] = pair.value.json(bytes: bytes)
            }
            return .object(object)
        case .tagged(_, let inner): return inner.json(bytes: bytes)
        case .bool(let b): return .bool(b)
        case .null, .undefined, .simple: return .null
        case .double(let d): return d.isFinite ? .number(d) : .null
        }
    }
}

/// What the JSON reports share: statuses, certificate facts, assertion contents.
enum ReportJSON {
    static func status(_ status: ValidationStatus) -> JSONValue {
        var object: [String: JSONValue] = ["code": .string(status.code), "explanation": .string(status.explanation)]
        if let url = status.url { object["url"] = .string(url) }
        return .object(object)
    }

    static func statusCodes(_ statuses: [ValidationStatus]) -> [String: JSONValue] {
        func of(_ kind: ValidationStatus.Kind) -> JSONValue { .array(statuses.filter { $0.kind == kind }.map(status)) }
        return ["success": of(.success), "informational": of(.informational), "failure": of(.failure)]
    }

    static func deltas(_ report: VerificationReport) -> JSONValue {
        .array(report.ingredientDeltas.map {
            .object(["ingredientAssertionURI": .string($0.ingredientAssertionURI), "validationDeltas": .object(statusCodes($0.statuses))])
        })
    }

    /// "2026-12-03T14:23:08+00:00", as c2pa-rs prints a certificate's or a time-stamp's time.
    static func time(_ date: Date) -> String {
        String(Timestamps.rfc3339UTC(date).prefix(19)) + "+00:00"
    }

    /// A manifest label from a status's URL ("self#jumbf=/c2pa/LABEL/…").
    static func manifestLabel(of url: String?) -> String? {
        guard let url, let range = url.firstRange(of: "/c2pa/") else { return nil }
        return url[range.upperBound...].split(separator: "/", maxSplits: 1).first.map(String.init)
    }

    static func absoluteURI(_ manifest: String, _ assertion: String) -> String {
        "self#jumbf=/c2pa/\(manifest)/c2pa.assertions/\(assertion)"
    }

    /// An assertion's content: CBOR or JSON as it reads; nil for binary content (thumbnails,
    /// embedded files) and content that does not decode.
    static func content(_ box: JUMBFSuperbox, bytes: ([UInt8]) -> JSONValue) -> JSONValue? {
        if let cbor = box.content("cbor") { return (try? CBORDecoder.decode(cbor))?.json(bytes: bytes) }
        if let json = box.content("json") { return try? JSONValue(parsing: json) }
        return nil
    }

    /// An embedded file's media type: its `bfdb` box, else the label's extension.
    static func mediaType(_ box: JUMBFSuperbox) -> String {
        if let description = box.content("bfdb"), description.count > 1 {
            let text = description.dropFirst().prefix { $0 != 0 }
            if !text.isEmpty { return String(decoding: text, as: UTF8.self) }
        }
        let ext = (box.label ?? "").split(separator: "__")[0].split(separator: ".").last.map(String.init) ?? ""
        return ["jpeg": "image/jpeg", "jpg": "image/jpeg", "png": "image/png", "webp": "image/webp"][ext] ?? "application/octet-stream"
    }
}
