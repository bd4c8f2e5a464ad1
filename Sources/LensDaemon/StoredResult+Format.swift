import C2PA
import LensCore
import LensStorage

extension StoredResult {
    /// Its container, told by its media type (C2PA's AssetFormat), never by sniffing here.
    var format: AssetFormat? { AssetFormat(mediaType: mime) }

    /// "photo" or "video", as the log names it.
    var kind: String { format?.isVideo == true ? "video" : "photo" }
}
