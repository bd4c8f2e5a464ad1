import C2PA

/// CBORDecoder.decode on arbitrary bytes, then walks the result the way readers do.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let item = try? CBORDecoder.decode(bytes) else { return 0 }
    walk(item)
    // What decodes must re-encode, and the encoding must decode again.
    _ = try? CBORDecoder.decode(item.encoded())
    return 0
}

private func walk(_ item: CBOR) {
    _ = item.intValue
    _ = item.untagged
    _ = item["alg"]?.textValue
    _ = item[.unsigned(33)]?.bytesValue
    for child in item.arrayValue ?? [] { walk(child) }
    for pair in item.mapPairs ?? [] {
        walk(pair.key)
        walk(pair.value)
    }
}
