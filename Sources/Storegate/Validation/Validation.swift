import AppStoreServer
import Contract
import Foundation

/// The rules of the App Store's identifiers and of free text, declared once: `Validate` checks them for the
/// CLI and manifests, and the RPC methods' `@Field` rules document and check them with the same facts.
extension Rule {
    /// 1 to 155 characters of A-Z, a-z, 0-9, '.' and '-'.
    public static let bundleId = Rule.characters("A-Za-z0-9.-", count: 1...155).described("The app's bundle ID, within the caller's tenant.")
    /// 10 characters of A-Z and 0-9, as App Store Connect shows it.
    public static let keyId = Rule.characters("A-Z0-9", count: 10...10)
    /// An App Store transaction ID (`transactionId`, `originalTransactionId`, `appTransactionId`): 1 to 32 digits.
    public static let transactionId = Rule.characters("0-9", count: 1...32)
    /// A product or offer identifier as App Store Connect allows it: 1 to 255 printable ASCII characters.
    public static let storeIdentifier = Rule.characters("!-~", count: 1...255)
    /// An App Store environment, as Apple names it.
    public static let appStoreEnvironment = Rule.oneOf(AppStoreEnvironment.known.map(\.rawValue))
    /// An environment an app can use.
    public static let appEnvironment = Rule.oneOf(Validate.environments.map(\.rawValue))
    /// The order ID on the customer's App Store invoice, such as MK5TTTVWJH: 1 to 64 letters and digits.
    public static let orderId = Rule.characters("A-Za-z0-9", count: 1...64).described("The order ID from the customer's App Store invoice.")
    /// The tenant's own identifier of a customer.
    public static let customerId = Rule.text(max: 128).described("The tenant's own identifier of the customer.")
}

/// Input rules shared by the CLI, manifests and RPC methods. Values are checked before anything is written.
public enum Validate {
    public static func slug(_ value: String, field: String = "slug") throws(StoregateError) -> String {
        guard (3...40).contains(value.utf8.count),
            value.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }),
            value.utf8.first.map({ (0x61...0x7A).contains($0) }) == true, value.utf8.last != 0x2D
        else {
            throw .invalid(field: field, reason: "must be 3 to 40 characters of a-z, 0-9 and '-', starting with a letter and not ending with '-'")
        }
        return value
    }

    /// Free text such as a tenant name or an API key label: trimmed, then `Rule.text(max:)` (1...`max`
    /// characters, no control characters, no U+FFFD, which stands in for bytes that were not valid UTF-8).
    public static func text(_ value: String, field: String, max: Int = 200) throws(StoregateError) -> String {
        try rule(.text(max: max), trimmingWhitespace(value), field: field)
    }

    /// `value` without the whitespace (`CharacterSet.whitespaces`: Unicode's space separators and the tab) at
    /// either end; itself, with nothing made, when there is none (Foundation's trimming bridges to NSString,
    /// which showed on the status read's path).
    static func trimmingWhitespace(_ value: String) -> String {
        let isWhitespace = { (scalar: Unicode.Scalar) in scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator }
        let scalars = value.unicodeScalars
        guard let first = scalars.first, let last = scalars.last, isWhitespace(first) || isWhitespace(last) else { return value }
        guard let start = scalars.firstIndex(where: { !isWhitespace($0) }), let end = scalars.lastIndex(where: { !isWhitespace($0) }) else { return "" }
        return String(scalars[start...end])
    }

    /// `value` if it keeps `rule`; otherwise refused, naming `field`.
    public static func rule(_ rule: Rule, _ value: String, field: String) throws(StoregateError) -> String {
        if let reason = rule.violation(value) { throw .invalid(field: field, reason: reason) }
        return value
    }

    public static func bundleId(_ value: String, field: String = "bundleId") throws(StoregateError) -> String {
        try rule(.bundleId, value, field: field)
    }

    public static func keyId(_ value: String, field: String = "keyId") throws(StoregateError) -> String {
        try rule(.keyId, value, field: field)
    }

    public static func issuerId(_ value: String, field: String = "issuerId") throws(StoregateError) -> UUID {
        guard value.utf8.count == 36, let uuid = UUID(uuidString: value) else { throw .invalid(field: field, reason: "must be a UUID") }
        return uuid
    }

    public static func appAppleId(_ value: Int64?, field: String = "appAppleId") throws(StoregateError) -> Int64? {
        if let value, value <= 0 { throw .invalid(field: field, reason: "must be a positive integer") }
        return value
    }

    /// The environments an app can use, in the order they are kept.
    public static let environments: [AppStoreEnvironment] = [.production, .sandbox]

    public static func environments(_ values: [String], field: String = "environments") throws(StoregateError) -> [AppStoreEnvironment] {
        guard !values.isEmpty else { throw .invalid(field: field, reason: "must name at least one of Production, Sandbox") }
        for (i, value) in values.enumerated() where !environments.contains(AppStoreEnvironment(rawValue: value)) {
            throw .invalid(field: "\(field)[\(i)]", reason: "must be Production or Sandbox")
        }
        return environments.filter { values.contains($0.rawValue) }
    }

    /// The tenant's own identifier of a customer, trimmed.
    public static func customerId(_ value: String, field: String = "customerId") throws(StoregateError) -> String {
        try text(value, field: field, max: 128)
    }
}

extension Validate {
    public static func storeIdentifier(_ value: String, field: String) throws(StoregateError) -> String {
        try rule(.storeIdentifier, value, field: field)
    }

    public static func transactionId(_ value: String, field: String) throws(StoregateError) -> String {
        try rule(.transactionId, value, field: field)
    }

    public static func orderId(_ value: String, field: String = "orderId") throws(StoregateError) -> String {
        try rule(.orderId, value, field: field)
    }
}

extension Validate {
    /// Refuses a value this build does not know, naming the ones it does.
    public static func known<T: AppStoreValue>(_ value: T, field: String) throws(StoregateError) {
        guard T.known.contains(value) else {
            throw .invalid(field: field, reason: "must be one of " + T.known.map(\.rawValue.description).joined(separator: ", "))
        }
    }
}
