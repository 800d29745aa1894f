import SwiftSyntax
import SwiftSyntaxBuilder

/// A stored property of a params or result struct, as the macros read it: its name, its `@Field` rule
/// and the text of its `///` comment.
struct StoredField {
    let name: String
    let rule: ExprSyntax?
    let description: String?

    /// The struct's stored instance properties, in declaration order; a `private` one is not part of the contract.
    static func all(in declaration: some DeclGroupSyntax) -> [StoredField] {
        declaration.memberBlock.members.flatMap { member -> [StoredField] in
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                !variable.modifiers.contains(where: { [.keyword(.static), .keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind) })
            else { return [] }
            let rule = variable.attributes.lazy.compactMap { $0.as(AttributeSyntax.self) }
                .first { $0.attributeName.trimmedDescription == "Field" }?
                .arguments?.as(LabeledExprListSyntax.self)?.first?.expression
            let description = documentation(variable.leadingTrivia)
            return variable.bindings.compactMap { binding in
                guard binding.accessorBlock == nil, let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return nil }
                return StoredField(name: name, rule: rule, description: description)
            }
        }
    }

    /// The `///` lines before a declaration, joined into one paragraph.
    private static func documentation(_ trivia: Trivia) -> String? {
        let lines = trivia.compactMap { piece -> String? in
            guard case .docLineComment(let text) = piece else { return nil }
            return String(text.dropFirst(3).drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        }
        return lines.isEmpty ? nil : lines.joined(separator: " ")
    }

    /// The `Field` that declares it at run time, as Swift source.
    var declaration: String {
        let text = description.map { StringLiteralExprSyntax(content: $0).description } ?? "nil"
        return #"Field("\#(name)", \.\#(name), rule: \#(rule?.trimmedDescription ?? "nil"), description: \#(text))"#
    }
}
