import Foundation

/// `UploadMessageImage`, as Apple defines it.
public struct UploadMessageImage: Codable, Hashable, Sendable {
    /// The unique identifier of an image.
    public var imageIdentifier: LowercaseUUID
    /// The alternative text you provide for the corresponding image.
    public var altText: String

    public init(imageIdentifier: LowercaseUUID, altText: String) {
        self.imageIdentifier = imageIdentifier
        self.altText = altText
    }
}
