import Foundation
import JSONRPC
import Storegate

/// `exports.read`: the tenant's transactions, events or subscriptions over a date range, a page at a time.
enum ExportMethods {
    static let all = [read]

    @RPCParams struct ReadParams {
        let what: ExportKind
        /// From this instant (included).
        let from: Date
        /// To this instant (excluded).
        let to: Date
        /// csv (the default) or ndjson.
        let format: ExportFormat?
        /// The `next` of the previous page; absent for the first.
        @Field(.maxLength(400)) let cursor: String?
        /// At most this many rows (1,000 by default, at most 10,000).
        @Field(.page(ExportService.page)) let limit: Int?
    }

    static let read = RPCMethod<RPCCall>(
        "exports.read", tag: "exports", summary: "A page of the tenant's transactions, events or subscriptions, as CSV or newline-delimited JSON.",
        description: """
            Transactions by purchase date, events by sequence (within when they were written), subscriptions by Apple's last signed date, in \
            [from, to). Read every page by passing each `next` as `cursor` until none comes. The columns are stable (docs/API.md, "Exports"); \
            CSV is RFC 4180 with a header line on the first page, and a text cell a spreadsheet would run as a formula is written after a `'`.
            """,
        result: "exportPage", errors: [ErrorCode.invalidParams]
    ) { (params: ReadParams, call) in
        try await call.capabilities.exports.page(
            tenant: call.caller.tenant, what: params.what, from: params.from, to: params.to, format: params.format ?? .csv, cursor: params.cursor,
            limit: params.limit)
    }
}
