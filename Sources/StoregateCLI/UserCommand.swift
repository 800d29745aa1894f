import ArgumentParser
import Foundation
import Storegate

/// The support console's people: added with a role, listed, removed, given a one-time sign-in link or a
/// password (read from standard input, never an argument).
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Add, list and remove the people of a tenant who use the support console (/console).",
        subcommands: [Add.self, List.self, Remove.self, Link.self, Password.self])

    /// The link a person opens to sign in once, at the console of `STOREGATE_PUBLIC_URL`.
    static func link(_ secret: String) -> String { Runtime.publicURL + "/console/link/" + secret }

    static func role(_ text: String) throws -> ConsoleUser.Role {
        guard let role = ConsoleUser.Role(rawValue: text) else {
            throw ValidationError("--role must be one of " + ConsoleUser.Role.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return role
    }

    static func passwordFromStandardInput() -> String? {
        readLine(strippingNewline: true)
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a person; prints a one-time sign-in link (valid 24 hours).",
            discussion: "With --password-stdin the first line of standard input is their password (12 to 72 bytes), hashed with bcrypt.")
        @OptionGroup var tenant: TenantOption
        @Option(help: "Their email address (their sign-in name).") var email: String
        @Option(help: "viewer (reads), support (also acts for customers) or admin (also sees the tenant's people).") var role: String
        @Flag(help: "Read a password from standard input.") var passwordStdin = false

        func run() async throws {
            let (slug, email, role) = (tenant.tenant, email, try UserCommand.role(role))
            let password = passwordStdin ? UserCommand.passwordFromStandardInput() : nil
            let (user, link) = try await tenant.run { capabilities, tenant in
                try await capabilities.consoleUsers.add(
                    tenant: tenant, email: email, role: role, password: password, actor: .cli)
            }
            print("added \(user.email) (\(user.role.rawValue)) to \(slug)")
            print("sign-in link (once, within 24 hours): \(UserCommand.link(link))")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a tenant's console users.")
        @OptionGroup var tenant: TenantOption

        func run() async throws {
            try await tenant.list(none: "no console users") {
                try await $0.consoleUsers.list(tenant: $1)
            } line: { user in
                let signedIn = user.lastSignInAt.map { ISO8601DateFormatter().string(from: $0) } ?? "never signed in"
                return [user.email, user.role.rawValue, user.hasPassword ? "password" : "link only", signedIn]
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a person; their sessions end at once.")
        @OptionGroup var tenant: TenantOption
        @Option(help: "Their email address.") var email: String

        func run() async throws {
            let (slug, email) = (tenant.tenant, email)
            try await tenant.run { capabilities, tenant in
                try await capabilities.consoleUsers.remove(tenant: tenant, email: email, actor: .cli)
            }
            print("removed \(email) from \(slug)")
        }
    }

    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a new one-time sign-in link for a person (valid 24 hours).")
        @OptionGroup var tenant: TenantOption
        @Option(help: "Their email address.") var email: String

        func run() async throws {
            let email = email
            let link = try await tenant.run { capabilities, tenant in
                try await capabilities.consoleUsers.issueLink(tenant: tenant, email: email, actor: .cli)
            }
            print(UserCommand.link(link))
        }
    }

    struct Password: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set a person's password from the first line of standard input.")
        @OptionGroup var tenant: TenantOption
        @Option(help: "Their email address.") var email: String

        func run() async throws {
            let email = email
            guard let password = UserCommand.passwordFromStandardInput() else { throw ValidationError("no password on standard input") }
            try await tenant.run { capabilities, tenant in
                try await capabilities.consoleUsers.setPassword(
                    tenant: tenant, email: email, password: password, actor: .cli)
            }
            print("password set for \(email)")
        }
    }
}
