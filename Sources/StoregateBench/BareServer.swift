import Foundation
import Hummingbird
import JSONRPC
import Logging
import NIOCore

/// The anchor for the RPC path's figures: a bare Hummingbird 2 server whose `POST /rpc` checks
/// `Authorization: Bearer …` against a constant, decodes the JSON-RPC request with Codable (Hummingbird's
/// `request.decode`, Foundation's `JSONDecoder`) and answers a tenant-sized result with Codable
/// (`JSONEncoder`), as a Hummingbird service written without Storegate would. `POST /rpc/parsed` does the
/// same with the project's own `JSONParser` and `JSONValue` writer, the JSON work Storegate's path does.
/// What `tenant.get` costs past them is Storegate's own: authentication by API key, its JSON-RPC engine,
/// dispatch, metrics and logs.
enum BareServer {
    static let authorization = "Bearer sg_bench00000_" + String(repeating: "0", count: 40)

    struct RPCRequest: Decodable {
        let jsonrpc: String
        let method: String
        let params: [String: String]?
        let id: Int
    }

    struct Tenant: Encodable {
        let id: String
        let slug: String
        let name: String
        let status: String
        let createdAt: String
    }

    struct Reply: ResponseEncodable {
        let jsonrpc: String
        let result: Tenant
        let id: Int
    }

    static let tenant = Tenant(
        id: "0b1c2d3e-4f50-4617-8829-3a4b5c6d7e8f", slug: "bench-1a2b3c4d", name: "Bench", status: "active", createdAt: "2026-01-01T00:00:00Z")

    static func application(logger: Logger, onServerRunning: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
        let router = Router()
        router.post("/rpc") { request, context -> Response in
            guard request.headers[.authorization] == authorization else { return Response(status: .unauthorized) }
            let call = try await request.decode(as: RPCRequest.self, context: context)
            guard call.jsonrpc == "2.0", call.method == "tenant.get" else { return Response(status: .badRequest) }
            return try Reply(jsonrpc: "2.0", result: tenant, id: call.id).response(from: request, context: context)
        }
        router.post("/rpc/parsed") { request, _ -> Response in
            guard request.headers[.authorization] == authorization else { return Response(status: .unauthorized) }
            let call = try JSONParser.parse(try await request.body.collect(upTo: 1 << 20).readableBytesView)
            guard call["jsonrpc"] == "2.0", call["method"] == "tenant.get", let id = call["id"] else { return Response(status: .badRequest) }
            let result: JSONValue = [
                "createdAt": .string(tenant.createdAt), "id": .string(tenant.id), "name": .string(tenant.name), "slug": .string(tenant.slug),
                "status": .string(tenant.status),
            ]
            let reply = JSONValue.object([("jsonrpc", "2.0"), ("result", result), ("id", id)])
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: reply.serialized)))
        }
        return Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { await onServerRunning($0.localAddress?.port ?? 0) }, logger: logger)
    }
}
