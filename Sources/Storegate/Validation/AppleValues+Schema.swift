import AppStoreServer
import Contract

// Apple's enumerations as the API shows them: their cases (or the values this build
// knows of Apple's open sets) are their JSON Schema `enum`, and any other value is refused.

extension DeliveryStatus: JSONSchemaType {}
extension RefundPreference: JSONSchemaType {}
extension ProductType: JSONSchemaType {}
extension InAppOwnershipType: JSONSchemaType {}
extension Order: JSONSchemaType {}

extension AppStoreValue where Self: JSONSchemaType, RawValue == String {
    public static func jsonSchema(rule: Rule?, description: String?) -> JSONValue {
        String.jsonSchema(rule: rule ?? .oneOf(known.map(\.rawValue)), description: description)
    }

    public static func violation(_ value: Self, rule: Rule) -> Violation? {
        String.violation(value.rawValue, rule: rule.values == nil ? .oneOf(known.map(\.rawValue)) : rule)
    }
}

/// Apple's environments: a field's rule says which it admits (an app uses Production and Sandbox).
extension AppStoreEnvironment: JSONSchemaType {}
