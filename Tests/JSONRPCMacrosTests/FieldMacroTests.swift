import JSONRPCMacros
import MacroTesting
import Testing

/// `@Field(rule)`: only a mark for `@RPCParams` and `@RPCObject`, which read its rule; it adds nothing.
@Suite(.macros(["Field": FieldMacro.self]))
struct FieldMacroTests {
    @Test func addsNoPeer() {
        assertMacro {
            """
            struct Plain {
                @Field(.range(1...100, default: 50)) let limit: Int?
            }
            """
        } expansion: {
            """
            struct Plain {
                let limit: Int?
            }
            """
        }
    }
}
