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
    /// The type of an external purchase custom link token (present only for those), such as `SERVICES` or
    /// `ACQUISITION` (notifications 2.17; not yet in Apple's Python library).
    public var tokenType: String?
    /// The UNIX date, in milliseconds, when the token expires (notifications 2.17).
    public var tokenExpirationDate: Int64?

    public init(
        externalPurchaseId: String? = nil, tokenCreationDate: Int64? = nil, appAppleId: Int64? = nil, bundleId: String? = nil, tokenType: String? = nil,
        tokenExpirationDate: Int64? = nil
    ) {
        self.externalPurchaseId = externalPurchaseId
        self.tokenCreationDate = tokenCreationDate
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.tokenType = tokenType
        self.tokenExpirationDate = tokenExpirationDate
    }
}
