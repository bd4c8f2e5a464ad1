import C2PA
import FoundationEssentials
import LensSystem

/// Where and with what a recording was made, in the boxes video software reads: the location as
/// QuickTime's `udta/©xyz` (ISO 6709) and Apple's `mdta` keys in `moov/meta` (location, make,
/// model, creation date), as exiftool, FFmpeg and phone galleries read them. Made from the
/// recording's `CaptureMetadata`, the value its manifest's `c2pa.metadata` is made from; they sit
/// in the moov, which the C2PA BMFF hash covers.
enum QuickTimeMetadata {
    static let locationKey = "com.apple.quicktime.location.ISO6709"
    static let makeKey = "com.apple.quicktime.make"
    static let modelKey = "com.apple.quicktime.model"
    static let creationDateKey = "com.apple.quicktime.creationdate"

    /// `udta` (with a fix) and `meta`, whole boxes to close the moov with.
    static func boxes(_ metadata: CaptureMetadata) -> [UInt8] {
        let location = metadata.location.map(iso6709)
        var items = [(makeKey, metadata.make), (modelKey, metadata.model), (creationDateKey, metadata.dateTimeOriginal)]
        if let location { items.insert((locationKey, location), at: 0) }
        return BoxBuilder.build { builder in
            if let location {
                builder.box("udta") { udta in
                    udta.box(type: [0xA9] + Array("xyz".utf8)) { box in
                        let text = Array(location.utf8)
                        box.u16(UInt16(text.count))
                        box.u16(0x15C7)  // language: the packed Macintosh code QuickTime writes for location strings
                        box.append(text)
                    }
                }
            }
            // QuickTime's form, as Apple's cameras write it: no version and flags (exiftool reads a moov's meta so;
            // FFmpeg finds the hdlr either way).
            builder.box("meta") { meta in
                meta.fullBox("hdlr") { box in
                    box.u32(0)  // pre_defined
                    box.fourCC("mdta")
                    box.zeros(12)
                    box.u8(0)  // empty name
                }
                meta.fullBox("keys") { keys in
                    keys.u32(UInt32(items.count))
                    for (key, _) in items { keys.box("mdta") { $0.append(Array(key.utf8)) } }
                }
                meta.box("ilst") { ilst in
                    for (index, item) in items.enumerated() {
                        // An item's type is the 1-based index of its key.
                        ilst.box(type: BoxBuilder.build { $0.u32(UInt32(index + 1)) }) { entry in
                            entry.box("data") { data in
                                data.u32(1)  // well-known type 1: UTF-8 text
                                data.u32(0)  // default locale
                                data.append(Array(item.1.utf8))
                            }
                        }
                    }
                }
            }
        }
    }

    /// "-33.045600-070.061200+012.000/": degrees to a millionth (≈ 0.1 m), the altitude with a 3D fix only.
    static func iso6709(_ fix: GeoLocation) -> String {
        String(cFormat: "%+010.6f%+011.6f", fix.latitude, fix.longitude)
            + (fix.altitude.map { String(cFormat: "%+08.3f", $0) } ?? "") + "/"
    }
}
