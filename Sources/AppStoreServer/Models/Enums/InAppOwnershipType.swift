/// `InAppOwnershipType`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct InAppOwnershipType: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let familyShared = InAppOwnershipType(rawValue: "FAMILY_SHARED")
    public static let purchased = InAppOwnershipType(rawValue: "PURCHASED")

    /// The values this build knows.
    public static let known: [InAppOwnershipType] = [.familyShared, .purchased]
}
