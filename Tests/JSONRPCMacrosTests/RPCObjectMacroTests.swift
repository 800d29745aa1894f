import JSONRPCMacros
import MacroTesting
import Testing

/// `@RPCObject(title:)`: a result object's `fields`, as `@RPCParams` makes them, and its `title`.
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
            }
            """#
        }
    }
}
