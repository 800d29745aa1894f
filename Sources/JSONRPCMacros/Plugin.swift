import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin behind `@RPCParams`, `@RPCObject` and `@Field` (declared in `Contract`).
@main struct JSONRPCMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [RPCParamsMacro.self, RPCObjectMacro.self, FieldMacro.self]
}
