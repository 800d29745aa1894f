import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin behind `@RPCParams`, `@RPCObject` and `@Field` (declared in `JSONRPC`).
@main struct JSONRPCMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [RPCParamsMacro.self, RPCObjectMacro.self, FieldMacro.self]
}
