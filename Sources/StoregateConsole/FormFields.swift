import Foundation
import Storegate

/// A form's text field as support means it: trimmed of surrounding spaces, and nil when empty or left out.
/// (`URLEncodedFormDecoder` has read `+` as a space and percent-decoded it; a password is a plain
/// `String?`, as typed.)
@propertyWrapper
struct Trimmed: Decodable, Sendable {
    var wrappedValue: String?

    init(wrappedValue: String?) {
        let trimmed = wrappedValue?.trimmingCharacters(in: .whitespacesAndNewlines)
        self.wrappedValue = trimmed?.isEmpty == false ? trimmed : nil
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(wrappedValue: container.decodeNil() ? nil : try container.decode(String.self))
    }
}

/// A form's whole number, read where it is used, so that a missing or wrong one is refused naming its
/// field (`days must be a whole number`) once the rest of the form is known.
struct WholeNumber: Decodable, Sendable {
    let field: String
    let text: String?

    init(field: String, text: String?) {
        self.field = field
        self.text = text
    }

    init(from decoder: any Decoder) throws {
        self.init(field: decoder.codingPath.last?.stringValue ?? "", text: try Trimmed(from: decoder).wrappedValue)
    }

    /// The number, or a refusal naming the field.
    var value: Int {
        get throws(StoregateError) {
            guard let text else { throw .invalid(field: field, reason: "is required") }
            guard let value = Int(text) else { throw .invalid(field: field, reason: "must be a whole number") }
            return value
        }
    }

    /// The number, nil when the field was left empty.
    var valueIfGiven: Int? {
        get throws(StoregateError) { text == nil ? nil : try value }
    }
}

extension KeyedDecodingContainer {
    /// A field left out of the form is an empty one (the synthesized `init(from:)` calls this for `@Trimmed`).
    func decode(_ type: Trimmed.Type, forKey key: Key) throws -> Trimmed {
        try decodeIfPresent(type, forKey: key) ?? Trimmed(wrappedValue: nil)
    }

    /// A whole number knows its field's name, and a field left out is an empty one.
    func decode(_ type: WholeNumber.Type, forKey key: Key) throws -> WholeNumber {
        WholeNumber(field: key.stringValue, text: try decode(Trimmed.self, forKey: key).wrappedValue)
    }
}
