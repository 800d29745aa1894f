import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `tenant.get`: the calling tenant.
enum TenantMethods {
    static let all = [get]

    static let get = RPCMethod<RPCCall>(
        "tenant.get", tag: "tenant", summary: "The calling tenant.", description: "Returns the tenant that owns the API key of the request.", result: "tenant",
        errors: [ErrorCode.unauthenticated]
    ) { (_: NoParams, call) in TenantView(call.caller.tenant) }

}

/// What RPC results show of a tenant.
@RPCObject(title: "Tenant") struct TenantView: JSONValueConvertible {
    @Field(.uuid) let id: String
    let slug: String
    let name: String
    let status: Tenant.Status
    let createdAt: Date

    init(_ tenant: Tenant) {
        id = tenant.id.uuidString.lowercased()
        slug = tenant.slug
        name = tenant.name
        status = tenant.status
        createdAt = tenant.createdAt
    }
}
