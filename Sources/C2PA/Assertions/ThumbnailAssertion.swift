/// `c2pa.thumbnail.claim.jpeg`: a small JPEG of the signed image, embedded as a file.
public struct ThumbnailAssertion: Assertion {
    public var jpeg: [UInt8]
    public var label: String { Labels.thumbnailClaimJPEG }

    public init(jpeg: [UInt8]) { self.jpeg = jpeg }

    public func content() throws -> AssertionContent {
        .embeddedFile(mediaType: "image/jpeg", data: jpeg)
    }
}
