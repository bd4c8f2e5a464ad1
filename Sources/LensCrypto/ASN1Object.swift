import COpenSSL

enum ASN1Object {
    /// Text of an ASN1_OBJECT: always dotted when `numeric`, else OpenSSL's long name where it has one.
    static func text(_ object: OpaquePointer, numeric: Bool) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        let needed = Int(OBJ_obj2txt(&buffer, Int32(buffer.count), object, numeric ? 1 : 0))
        if needed >= buffer.count {
            buffer = [CChar](repeating: 0, count: needed + 1)
            OBJ_obj2txt(&buffer, Int32(buffer.count), object, numeric ? 1 : 0)
        }
        return String(nulTerminated: buffer)
    }
}
