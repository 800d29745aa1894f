import Foundation

/// `GetImageListResponseItem`, as Apple defines it.
public struct GetImageListResponseItem: Codable, Hashable, Sendable {
    /// The identifier of the image.
    public var imageIdentifier: LowercaseUUID?
    /// The current state of the image.
    public var imageState: ImageState?
    /// The size of the image.
    public var imageSize: ImageSize?

    public init(imageIdentifier: LowercaseUUID? = nil, imageState: ImageState? = nil, imageSize: ImageSize? = nil) {
        self.imageIdentifier = imageIdentifier
        self.imageState = imageState
        self.imageSize = imageSize
    }
}
