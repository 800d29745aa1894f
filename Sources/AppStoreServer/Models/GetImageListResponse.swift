import Foundation

/// `GetImageListResponse`, as Apple defines it.
public struct GetImageListResponse: Codable, Hashable, Sendable {
    /// An array of all image identifiers and their image state.
    public var imageIdentifiers: [GetImageListResponseItem]?

    public init(imageIdentifiers: [GetImageListResponseItem]? = nil) {
        self.imageIdentifiers = imageIdentifiers
    }
}
