import Foundation

/// `ExternalPurchaseToken`, as Apple defines it.
public struct ExternalPurchaseToken: Codable, Hashable, Sendable {
    /// The field of an external purchase token that uniquely identifies the token.
    public var externalPurchaseId: String?
    /// The field of an external purchase token that contains the UNIX date, in milliseconds, when the system created the token.
    public var tokenCreationDate: Int64?
    /// The unique identifier of an app in the App Store.
    public var appAppleId: Int64?
    /// The bundle identifier of an app.
    public var bundleId: String?

    public init(externalPurchaseId: String? = nil, tokenCreationDate: Int64? = nil, appAppleId: Int64? = nil, bundleId: String? = nil) {
        self.externalPurchaseId = externalPurchaseId
        self.tokenCreationDate = tokenCreationDate
        self.appAppleId = appAppleId
        self.bundleId = bundleId
    }
}
