import Foundation

/// `UpdateAppAccountTokenRequest`, as Apple defines it.
public struct UpdateAppAccountTokenRequest: Codable, Hashable, Sendable {
    /// The UUID that an app optionally generates to map a customer’s in-app purchase with its resulting App Store transaction.
    public var appAccountToken: LowercaseUUID

    public init(appAccountToken: LowercaseUUID) {
        self.appAccountToken = appAccountToken
    }
}
