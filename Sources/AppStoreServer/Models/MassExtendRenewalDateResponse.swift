import Foundation

/// `MassExtendRenewalDateResponse`, as Apple defines it.
public struct MassExtendRenewalDateResponse: Codable, Hashable, Sendable {
    /// A string that contains a unique identifier you provide to track each subscription-renewal-date extension request.
    public var requestIdentifier: String?

    public init(requestIdentifier: String? = nil) {
        self.requestIdentifier = requestIdentifier
    }
}
