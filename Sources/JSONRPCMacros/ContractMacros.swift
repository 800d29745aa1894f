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
        let fields = StoredField.all(in: declaration)
        return [try extensionDecl(type, conformance: "RPCParams", fields: fields, extra: firstViolation(fields))]
    }

    /// `firstViolation`, member by member in declaration order, each value's own type known where it is
    /// checked against its field's rule (not reached through the field's key path).
    static func firstViolation(_ fields: [StoredField]) -> String {
        let members = fields.enumerated().map { index, field in
            let name = StringLiteralExprSyntax(content: field.name).description
            return "        if let violation = Self.fields[\(index)].violation(of: self.\(field.name)) { return (\(name) + violation.path, violation.reason) }"
        }
        return """
            public func firstViolation() -> (field: String, reason: String)? {
            \((members + ["        return nil"]).joined(separator: "\n"))
                }
            """
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
        let fields = StoredField.all(in: declaration)
        return [
            try extensionDecl(type, conformance: "RPCObject", fields: fields, extra: "public static var title: String? { \(title) }\n" + write(fields))
        ]
    }

    /// `write`, member by member in the order `JSONEncoder` writes them (by name), each value's own type
    /// known where it is written: a field's closure reached its value through a key path and generic
    /// metadata looked up at run time, most of a status result's cost.
    static func write(_ fields: [StoredField]) -> String {
        let members = fields.sorted { $0.name < $1.name }.map { field in
            "        writeMember(\(StringLiteralExprSyntax(content: "\"\(field.name)\":").description), value.\(field.name), to: &out, first: &first)"
        }
        return """
                public static func write(_ value: Self, to out: inout [UInt8]) -> Bool {
                    out.append(UInt8(ascii: "{"))
                    var first = true
            \(members.joined(separator: "\n"))
                    out.append(UInt8(ascii: "}"))
                    return true
                }
            """
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
