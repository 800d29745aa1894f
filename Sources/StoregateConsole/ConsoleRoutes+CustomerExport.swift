import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth
import Storegate

/// A customer's export (`customers.export`) as a JSON download from their page, for every role that may see
/// the customer; audited with the person's email, as the RPC method is with the API key.
extension ConsoleRoutes {
    struct CustomerExportQuery: Decodable {
        @Trimmed var id: String?
    }

    /// Where the customer's page links to their export.
    static func exportURL(_ customerId: String) -> String { "/console/customer/export?id=\(query(customerId))" }

    @Sendable func customerExport(_ request: Request, context: Context) async throws -> Response {
        let session = try context.requireIdentity()
        let customerId = try request.uri.decodeQuery(as: CustomerExportQuery.self, context: context).id ?? ""
        let export: CustomerExport
        do {
            export = try await capabilities.customerExports.export(tenant: session.tenant, customerId: customerId, actor: session.user.actor)
        } catch let error as StoregateError {
            return pages.message("Export", FailureMessage(error).text, session: session, status: Self.status(error))
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let body = try encoder.encode(export)
        let name = String(customerId.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0) ? Character($0) : "_" })
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.contentDisposition] = "attachment; filename=\"customer-\(name.prefix(64)).json\""
        headers[.cacheControl] = "no-store"
        headers[.xContentTypeOptions] = "nosniff"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
