import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@RPCParams`: a method's parameters from the struct's stored properties. It adds the `RPCParams`
/// conformance with `fields` (names, key paths, rules, `///` descriptions), from
/// which the OpenRPC document, the check of each value and the list of accepted names all come; the
/// decoding is the struct's own `Decodable`, from the same properties.
public struct RPCParamsMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(StructDeclSyntax.self) else { throw MacroError("@RPCParams applies to a struct") }
        return [try extensionDecl(type, conformance: "RPCParams", fields: StoredField.all(in: declaration), extra: "")]
    }
}

/// `@RPCObject(title:)`: a result object's JSON Schema from the struct's stored properties, the same way.
public struct RPCObjectMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(StructDeclSyntax.self) else { throw MacroError("@RPCObject applies to a struct") }
        let title = node.arguments?.as(LabeledExprListSyntax.self)?.first { $0.label?.text == "title" }?.expression.trimmedDescription ?? "nil"
        return [
            try extensionDecl(type, conformance: "RPCObject", fields: StoredField.all(in: declaration), extra: "public static var title: String? { \(title) }")
        ]
    }
}

/// `@Field(rule)`: marks a property's rule for `@RPCParams` and `@RPCObject`; it adds nothing itself.
public struct FieldMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] { [] }
}

private func extensionDecl(_ type: some TypeSyntaxProtocol, conformance: String, fields: [StoredField], extra: String) throws -> ExtensionDeclSyntax {
    let list = fields.map { "        \($0.declaration)" }.joined(separator: ",\n")
    return try ExtensionDeclSyntax(
        """
        extension \(type.trimmed): \(raw: conformance) {
            public static let fields: [Field<Self>] = [
        \(raw: list)
            ]
            \(raw: extra)
        }
        """)
}

struct MacroError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
