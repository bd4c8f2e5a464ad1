import CGtk

/// `strings` as the NULL-terminated `const char **` GTK takes (accelerators, authors), for `body` only.
func withCStringArray<T>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> T) -> T {
    var copies = strings.map { UnsafePointer(strdup($0)) }
    defer { copies.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
    copies.append(nil)
    return copies.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}
