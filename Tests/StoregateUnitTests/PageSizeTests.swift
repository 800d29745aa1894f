import JSONRPC
import Testing

@testable import Storegate

/// A list's page size is one fact: the RPC documents it (`minimum`, `maximum`, `default`) and the domain
/// applies it, so a caller that is not the RPC (the CLI, the console) gets the same default and refusal.
@Suite struct PageSizeTests {
    @RPCParams struct ListParams {
        @Field(.page(RefundService.requestsPage)) let limit: Int?
    }

    @Test func theDocumentedDefaultIsTheAppliedOne() throws {
        let size = RefundService.requestsPage
        let schema = try #require(ListParams.fields.first).propertySchema
        #expect(schema["default"] == .number(String(size.standard)))
        #expect(schema["maximum"] == .number(String(size.maximum)))
        #expect(schema["minimum"] == .number("1"))
        #expect(try size.limit(nil) == size.standard)
        #expect(try size.limit(size.maximum) == size.maximum)
    }

    @Test func theDomainRefusesWhatTheDocumentRefuses() {
        for outside in [0, RefundService.requestsPage.maximum + 1] {
            #expect(throws: StoregateError.invalid(field: "limit", reason: "must be from 1 to \(RefundService.requestsPage.maximum)")) {
                try RefundService.requestsPage.limit(outside)
            }
        }
    }
}
