import JSONRPCMacros
import MacroTesting
import Testing

/// `@RPCParams`: a struct's stored properties become its `fields`, with their `@Field` rules and `///` text.
@Suite(.macros(["RPCParams": RPCParamsMacro.self, "Field": FieldMacro.self]))
struct RPCParamsMacroTests {
    @Test func requiredOptionalAndDefaultedFieldsWithRules() {
        assertMacro {
            """
            @RPCParams struct ListParams {
                /// The app's bundle ID.
                @Field(.bundleId) let bundleId: String
                /// Only this customer's; all customers when absent.
                @Field(.customerId) let customerId: String?
                /// At most this many.
                @Field(.range(1...100, default: 50)) let limit: Int?
                let includeRevoked: Bool
            }
            """
        } expansion: {
            #"""
            struct ListParams {
                /// The app's bundle ID.
                let bundleId: String
                /// Only this customer's; all customers when absent.
                let customerId: String?
                /// At most this many.
                let limit: Int?
                let includeRevoked: Bool
            }

            extension ListParams: RPCParams {
                public static let fields: [Field<Self>] = [
                    Field("bundleId", \.bundleId, rule: .bundleId, description: "The app's bundle ID."),
                    Field("customerId", \.customerId, rule: .customerId, description: "Only this customer's; all customers when absent."),
                    Field("limit", \.limit, rule: .range(1 ... 100, default: 50), description: "At most this many."),
                    Field("includeRevoked", \.includeRevoked, rule: nil, description: nil)
                ]
                public func firstViolation() -> (field: String, reason: String)? {
                    if let violation = Self.fields[0].violation(of: self.bundleId) {
                        return ("bundleId" + violation.path, violation.reason)
                    }
                    if let violation = Self.fields[1].violation(of: self.customerId) {
                        return ("customerId" + violation.path, violation.reason)
                    }
                    if let violation = Self.fields[2].violation(of: self.limit) {
                        return ("limit" + violation.path, violation.reason)
                    }
                    if let violation = Self.fields[3].violation(of: self.includeRevoked) {
                        return ("includeRevoked" + violation.path, violation.reason)
                    }
                    return nil
                }
            }
            """#
        }
    }

    @Test func documentationIsOneEscapedParagraph() {
        assertMacro {
            """
            @RPCParams struct NoteParams {
                /// A "quoted" note,
                ///   on two lines \\ with a backslash.
                @Field(.text(max: 100).described("Said where a field has no comment.")) let note: String
                // A plain comment is no description.
                let plain: String
            }
            """
        } expansion: {
            #"""
            struct NoteParams {
                /// A "quoted" note,
                ///   on two lines \ with a backslash.
                let note: String
                // A plain comment is no description.
                let plain: String
            }

            extension NoteParams: RPCParams {
                public static let fields: [Field<Self>] = [
                    Field("note", \.note, rule: .text(max: 100).described("Said where a field has no comment."), description: #"A "quoted" note, on two lines \ with a backslash."#),
                    Field("plain", \.plain, rule: nil, description: nil)
                ]
                public func firstViolation() -> (field: String, reason: String)? {
                    if let violation = Self.fields[0].violation(of: self.note) {
                        return ("note" + violation.path, violation.reason)
                    }
                    if let violation = Self.fields[1].violation(of: self.plain) {
                        return ("plain" + violation.path, violation.reason)
                    }
                    return nil
                }
            }
            """#
        }
    }

    @Test func onlyStoredInstancePropertiesArePartOfTheContract() {
        assertMacro {
            """
            @RPCParams struct PageParams {
                static let maximum = 100
                private let secret: String
                fileprivate var scratch: Int
                var computed: Int { 1 }
                struct Nested {
                    let ignored: Int
                }
                func helper() {}
                public let first, second: String
                var page: Int = 1
            }
            """
        } expansion: {
            #"""
            struct PageParams {
                static let maximum = 100
                private let secret: String
                fileprivate var scratch: Int
                var computed: Int { 1 }
                struct Nested {
                    let ignored: Int
                }
                func helper() {}
                public let first, second: String
                var page: Int = 1
            }

            extension PageParams: RPCParams {
                public static let fields: [Field<Self>] = [
                    Field("first", \.first, rule: nil, description: nil),
                    Field("second", \.second, rule: nil, description: nil),
                    Field("page", \.page, rule: nil, description: nil)
                ]
                public func firstViolation() -> (field: String, reason: String)? {
                    if let violation = Self.fields[0].violation(of: self.first) {
                        return ("first" + violation.path, violation.reason)
                    }
                    if let violation = Self.fields[1].violation(of: self.second) {
                        return ("second" + violation.path, violation.reason)
                    }
                    if let violation = Self.fields[2].violation(of: self.page) {
                        return ("page" + violation.path, violation.reason)
                    }
                    return nil
                }
            }
            """#
        }
    }
}
