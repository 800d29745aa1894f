import Foundation

/// `UploadMessageRequestBody`, as Apple defines it.
public struct UploadMessageRequestBody: Codable, Hashable, Sendable {
    /// The header text of the retention message that the system displays to customers.
    public var header: String
    /// The body text of the retention message that the system displays to customers.
    public var body: String
    /// The optional image identifier and its alternative text to appear as part of a text-based message with an image.
    public var image: UploadMessageImage?
    /// The position of header text, which defaults to placing header text above the body.
    public var headerPosition: HeaderPosition?
    /// An optional array of bullet points.
    public var bulletPoints: [BulletPoint]?

    public init(header: String, body: String, image: UploadMessageImage? = nil, headerPosition: HeaderPosition? = nil, bulletPoints: [BulletPoint]? = nil) {
        self.header = header
        self.body = body
        self.image = image
        self.headerPosition = headerPosition
        self.bulletPoints = bulletPoints
    }
}
