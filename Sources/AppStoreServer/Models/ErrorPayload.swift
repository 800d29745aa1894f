import Foundation

/// `ErrorPayload`, as Apple defines it.
public struct ErrorPayload: Codable, Hashable, Sendable {
    public var errorCode: Int64?
    public var errorMessage: String?

    public init(errorCode: Int64? = nil, errorMessage: String? = nil) {
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }
}
