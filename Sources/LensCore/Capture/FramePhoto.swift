import FoundationEssentials
import LensCamera
import LensImaging

extension FrameCopy {
    /// This frame as the photo to sign: a camera's MJPEG frame as it came (never re-encoded), a
    /// raw frame encoded at `quality`; `state` is the camera's when the frame was taken.
    public func capturedPhoto(state: CameraState, quality: Int) throws -> CapturedPhoto {
        let jpeg: [UInt8], thumbnail: [UInt8]
        switch kind {
        case .jpeg:
            jpeg = bytes
            thumbnail = try JPEGCodec.thumbnail(fromJPEG: bytes, maxSide: CapturedPhoto.thumbnailMaxSide,
                                                quality: CapturedPhoto.thumbnailQuality)
        case .rgb:
            (jpeg, thumbnail) = try bytes.withUnsafeBytes { rgb in
                try JPEGCodec.checkRGB(rgb, width: width, height: height)
                return (try JPEGCodec.encode(rgb: rgb, width: width, height: height, quality: quality),
                        try JPEGCodec.thumbnail(rgb: rgb, width: width, height: height, maxSide: CapturedPhoto.thumbnailMaxSide,
                                                quality: CapturedPhoto.thumbnailQuality))
            }
        }
        return CapturedPhoto(jpeg: jpeg, thumbnail: thumbnail, width: width, height: height, captureTime: offeredDate,
                             make: state.description.driver, model: state.description.name, isSynthetic: state.isSynthetic,
                             digitalZoomRatio: state.videoDigitalZoomRatio, frameNumber: sequence, busInfo: state.description.busInfo,
                             usb: state.description.usb)
    }
}
