import JSONRPCMacros
import MacroTesting
import Testing

/// The macros' only errors: each applies to a struct.
@Suite(.macros(["RPCParams": RPCParamsMacro.self, "RPCObject": RPCObjectMacro.self, "Field": FieldMacro.self]))
struct MacroDiagnosticsTests {
    @Test func rpcParamsOnAClass() {
        assertMacro {
            """
            @RPCParams final class ListParams {
                let limit: Int?
            }
            """
        } diagnostics: {
            """
            @RPCParams final class ListParams {
            ┬─────────
            ╰─ 🛑 @RPCParams applies to a struct
                let limit: Int?
            }
            """
        }
    }

    @Test func rpcParamsOnAnEnum() {
        assertMacro {
            """
            @RPCParams enum Kind {
                case offer
            }
            """
        } diagnostics: {
            """
            @RPCParams enum Kind {
            ┬─────────
            ╰─ 🛑 @RPCParams applies to a struct
                case offer
            }
            """
        }
    }

    @Test func rpcObjectOnAnEnum() {
        assertMacro {
            """
            @RPCObject(title: "Kind") enum Kind: String {
                case offer
            }
            """
        } diagnostics: {
            """
            @RPCObject(title: "Kind") enum Kind: String {
            ┬────────────────────────
            ╰─ 🛑 @RPCObject applies to a struct
                case offer
            }
            """
        }
    }

    @Test func rpcObjectOnAnActor() {
        assertMacro {
            """
            @RPCObject actor Store {
                let name: String
            }
            """
        } diagnostics: {
            """
            @RPCObject actor Store {
            ┬─────────
            ╰─ 🛑 @RPCObject applies to a struct
                let name: String
            }
            """
        }
    }
}
