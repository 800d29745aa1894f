import AppStoreServer
import Foundation
import KeyVault

/// Access support gave customers for a while. A grant's writes change its customer's holdings.
public protocol GrantStore: Sendable {
    func insert(_ grant: Grant) async throws
    /// Revokes the customer's grant unless it was revoked already; returns it as it is afterwards, nil when
    /// the customer has no such grant.
    func revoke(id: UUID, customer: UUID, by actor: String, reason: String?, at date: Date) async throws -> (grant: Grant, revoked: Bool)?
    /// The customer's grants, newest first: those revoked or expired too when `ended`.
    func list(customer: UUID, ended: Bool) async throws -> [Grant]
}
