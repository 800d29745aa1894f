import JSONRPCMacros
import MacroTesting
import Testing

/// `@RPCObject(title:)`: a result object's `fields`, as `@RPCParams` makes them, its `title`, and its `write`
/// (members by name, as `JSONEncoder` writes them).
@Suite(.macros(["RPCObject": RPCObjectMacro.self, "Field": FieldMacro.self]))
struct RPCObjectMacroTests {
    @Test func resultObjectWithTitle() {
        assertMacro {
            """
            @RPCObject(title: "WebhookEndpoint") public struct WebhookEndpointInfo: Sendable {
                /// The endpoint's ID.
                @Field(.endpointId) public let id: String
                @Field(.url(maxLength: 2048)) public let url: String
                /// Whether deliveries succeed.
                @Field(.oneOf(["active", "failing"])) public let status: String
                public let createdAt: Date?
            }
            """
        } expansion: {
            #"""
            public struct WebhookEndpointInfo: Sendable {
                /// The endpoint's ID.
                public let id: String
                public let url: String
                /// Whether deliveries succeed.
                public let status: String
                public let createdAt: Date?
            }

            extension WebhookEndpointInfo: RPCObject {
                public static let fields: [Field<Self>] = [
                    Field("id", \.id, rule: .endpointId, description: "The endpoint's ID."),
                    Field("url", \.url, rule: .url(maxLength: 2048), description: nil),
                    Field("status", \.status, rule: .oneOf(["active", "failing"]), description: "Whether deliveries succeed."),
                    Field("createdAt", \.createdAt, rule: nil, description: nil)
                ]
                public static var title: String? {
                    "WebhookEndpoint"
                }
                public static func write(_ value: Self, to out: inout [UInt8]) -> Bool {
                    out.append(UInt8(ascii: "{"))
                    var first = true
                    writeMember(#""createdAt":"#, value.createdAt, to: &out, first: &first)
                    writeMember(#""id":"#, value.id, to: &out, first: &first)
                    writeMember(#""status":"#, value.status, to: &out, first: &first)
                    writeMember(#""url":"#, value.url, to: &out, first: &first)
                    out.append(UInt8(ascii: "}"))
                    return true
                }
            }
            """#
        }
    }

    @Test func nestedObjectsArraysAndEnumsAreFieldsLikeAnyOther() {
        assertMacro {
            """
            @RPCObject struct RetentionRule {
                enum Kind: String {
                    case offer
                    case message
                }
                /// What the rule answers with.
                let kind: Kind
                let conditions: RetentionConditions?
                /// The products it applies to.
                @Field(.storeIdentifier) var productIds: [String]?
                var answers: [RetentionAnswer]
                var kinds: [Kind]
            }
            """
        } expansion: {
            #"""
            struct RetentionRule {
                enum Kind: String {
                    case offer
                    case message
                }
                /// What the rule answers with.
                let kind: Kind
                let conditions: RetentionConditions?
                /// The products it applies to.
                var productIds: [String]?
                var answers: [RetentionAnswer]
                var kinds: [Kind]
            }

            extension RetentionRule: RPCObject {
                public static let fields: [Field<Self>] = [
                    Field("kind", \.kind, rule: nil, description: "What the rule answers with."),
                    Field("conditions", \.conditions, rule: nil, description: nil),
                    Field("productIds", \.productIds, rule: .storeIdentifier, description: "The products it applies to."),
                    Field("answers", \.answers, rule: nil, description: nil),
                    Field("kinds", \.kinds, rule: nil, description: nil)
                ]
                public static var title: String? {
                    nil
                }
                public static func write(_ value: Self, to out: inout [UInt8]) -> Bool {
                    out.append(UInt8(ascii: "{"))
                    var first = true
                    writeMember(#""answers":"#, value.answers, to: &out, first: &first)
                    writeMember(#""conditions":"#, value.conditions, to: &out, first: &first)
                    writeMember(#""kind":"#, value.kind, to: &out, first: &first)
                    writeMember(#""kinds":"#, value.kinds, to: &out, first: &first)
                    writeMember(#""productIds":"#, value.productIds, to: &out, first: &first)
                    out.append(UInt8(ascii: "}"))
                    return true
                }
            }
            """#
        }
    }

    @Test func titleIsCopiedAsWritten() {
        assertMacro {
            """
            @RPCObject(title: RetentionRule.title) struct Named {
                let name: String
            }
            """
        } expansion: {
            #"""
            struct Named {
                let name: String
            }

            extension Named: RPCObject {
                public static let fields: [Field<Self>] = [
                    Field("name", \.name, rule: nil, description: nil)
                ]
                public static var title: String? {
                    RetentionRule.title
                }
                public static func write(_ value: Self, to out: inout [UInt8]) -> Bool {
                    out.append(UInt8(ascii: "{"))
                    var first = true
                    writeMember(#""name":"#, value.name, to: &out, first: &first)
                    out.append(UInt8(ascii: "}"))
                    return true
                }
            }
            """#
        }
    }
}
