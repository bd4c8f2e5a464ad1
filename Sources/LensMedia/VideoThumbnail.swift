import LensCamera
import LensImaging
/// The picture that stands for a video (its first frame), made like a photo's thumbnail.
public enum VideoThumbnail {
    /// ≤ 320 px long side JPEG (CapturedPhoto.thumbnailMaxSide/Quality) of a frame.
    public static func make(from frame: VideoFrame) throws -> [UInt8] {
        switch frame.pixels {
        case .rgb(let rgb):
            return try JPEGCodec.thumbnail(rgb: rgb, width: frame.width, height: frame.height,
                                           maxSide: CapturedPhoto.thumbnailMaxSide, quality: CapturedPhoto.thumbnailQuality)
        case .jpeg(let jpeg):
            return try JPEGCodec.thumbnail(fromJPEG: Array(jpeg), maxSide: CapturedPhoto.thumbnailMaxSide,
                                           quality: CapturedPhoto.thumbnailQuality)
        }
    }
}
