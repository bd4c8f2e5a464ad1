import LensFace

/// `MessageCatalog(mo:)` on arbitrary bytes (the gettext catalogs lensctl and apps read from
/// the locale directories), then a lookup of every instruction text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let catalog = try? MessageCatalog(mo: Array(UnsafeBufferPointer(start: data, count: size))) else { return 0 }
    let localization = FaceLocalization(catalog: catalog)
    for instruction in FaceInstruction.allCases { _ = instruction.localizedText(localization) }
    return 0
}
