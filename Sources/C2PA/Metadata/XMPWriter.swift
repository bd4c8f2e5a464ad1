import FoundationEssentials

/// An XMP packet with the very fields of the `c2pa.metadata` assertion (`MetadataAssertion.fields()`),
/// so what photo software reads from XMP is what the manifest asserts, value for value.
///
/// No `dcterms:provenance`: since C2PA 2.0 that key points to a manifest stored outside the asset
/// (2.2 §11.5, "Embedding a Reference to an external Manifest"); lensd's manifest is embedded.
enum XMPWriter {
    static func packet(_ metadata: CaptureMetadata) -> [UInt8] {
        var fields = MetadataAssertion(metadata).fields()
        guard case .object(let context)? = fields.removeValue(forKey: "@context") else {
            preconditionFailure("the metadata assertion names its namespaces")
        }
        let namespaces = context.keys.sorted().map { prefix in
            " xmlns:\(prefix)=\"\(escaped(context[prefix]?.stringValue ?? ""))\""
        }
        let properties = fields.keys.sorted().map { name in
            "\n   \(name)=\"\(escaped(text(of: fields[name]!)))\""
        }
        // end="r": the packet is signed, so it is not to be edited in place (and needs no padding).
        let xmp = "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
            + "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n"
            + " <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n"
            + "  <rdf:Description rdf:about=\"\"" + namespaces.joined() + properties.joined() + "/>\n"
            + " </rdf:RDF>\n"
            + "</x:xmpmeta>\n"
            + "<?xpacket end=\"r\"?>"
        return Array(xmp.utf8)
    }

    /// The assertion's values are strings and integral numbers (GPSAltitudeRef, Orientation).
    private static func text(of value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .number(let number) where number == number.rounded(): String(Int(number))
        case .number(let number): String(number)
        default: preconditionFailure("the metadata assertion holds no \(value) values")
        }
    }

    /// For an attribute value in double quotes; characters XML 1.0 cannot hold at all (C0
    /// controls but tab, newline, return) are left out.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t", "\n", "\r": out += "&#\(scalar.value);"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
