import Foundation

/// `BulletPoint`, as Apple defines it.
public struct BulletPoint: Codable, Hashable, Sendable {
    /// The text of the individual bullet point.
    public var text: String
    /// The identifier of the image to use as the bullet point.
    public var imageIdentifier: LowercaseUUID
    /// The alternative text you provide for the corresponding image of the bullet point.
    public var altText: String

    public init(text: String, imageIdentifier: LowercaseUUID, altText: String) {
        self.text = text
        self.imageIdentifier = imageIdentifier
        self.altText = altText
    }
}
