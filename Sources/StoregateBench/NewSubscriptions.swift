import AppStoreServer
import AppStoreSimulator
import Foundation
import Logging
import PostgresNIO
import StoregatePostgres

/// The notifications the ingestion figures post: Apple's notifications about new subscriptions, each a new
/// customer's (known to Storegate by its appAccountToken, as after `accounts.ensure`), SUBSCRIBED
/// (INITIAL_BUY) and then DID_RENEW a month on, each with its signed transaction and renewal info, signed by
/// the simulator's certificate chain.
struct NewSubscriptions {
    let ca: SimulatorCA
    let bundleId: String
    /// A subscription purchase to copy: product, group, price, currency.
    let template: JWSTransactionDecodedPayload
    private var serial = 0

    init(ca: SimulatorCA, bundleId: String, template: JWSTransactionDecodedPayload) {
        (self.ca, self.bundleId, self.template) = (ca, bundleId, template)
    }

    /// `n` new customers of the tenant whose schema is `schema` (quoted), made with one statement: their tokens.
    static func customers(_ n: Int, in schema: String, postgres: DatabaseClient, logger: Logger) async throws -> [UUID] {
        let tokens = (0..<n).map { _ in UUID() }
        try await postgres.withConnection { @Sendable conn in
            try await conn.run(
                """
                INSERT INTO \(unescaped: schema).customers (id, customer_id, app_account_token)
                SELECT gen_random_uuid(), 'ingest-' || token, token FROM unnest(\(tokens)::uuid[]) token
                """, logger: logger)
        }
        return tokens
    }

    /// ANALYZE of the tables of the tenant whose schema is `schema` (quoted) that have grown, as autovacuum
    /// does (50 rows changed and more): plans made while a new tenant's tables were empty scan them whole
    /// once they are not, and with thousands of tenants' tables autovacuum takes minutes to come round. A
    /// large app's renewal day meets tables that have been analyzed. A table still empty is left alone, as
    /// autovacuum leaves it: analyzed empty, it would be planned as empty however it grows.
    static func analyze(_ schema: String, postgres: DatabaseClient, logger: Logger) async throws {
        try await postgres.withConnection { @Sendable conn in
            let name = String(schema.dropFirst().dropLast())
            let tables = try await conn.query(
                "SELECT relname FROM pg_stat_user_tables WHERE schemaname = \(name) AND n_mod_since_analyze >= 50", logger: logger)
            for try await table in tables.decode(String.self) {
                try await conn.run("ANALYZE \(unescaped: schema).\(unescaped: "\"" + table + "\"")", logger: logger)
            }
        }
    }

    /// Two notifications for each of `tokens`, in blocks of 250 subscriptions: the block's SUBSCRIBED, then
    /// their DID_RENEW, each with the token of the customer it is about.
    mutating func notifications(tokens: [UUID]) throws -> [(token: UUID, body: String)] {
        let month: TimeInterval = 30 * 86_400
        let purchased = Date() - month
        var bodies: [(token: UUID, body: String)] = []
        for start in stride(from: 0, to: tokens.count, by: 250) {
            var block: [(token: UUID, first: JWSTransactionDecodedPayload, renewed: JWSTransactionDecodedPayload)] = []
            for token in tokens[start..<min(start + 250, tokens.count)] {
                serial += 1
                var first = template
                first.originalTransactionId = String(4_000_000_000_000_000 + serial)
                first.transactionId = first.originalTransactionId
                first.webOrderLineItemId = String(6_000_000_000_000_000 + serial)
                first.appAccountToken = LowercaseUUID(token)
                first.purchaseDate = Timestamp(purchased)
                first.originalPurchaseDate = Timestamp(purchased)
                first.expiresDate = Timestamp(purchased + month)
                first.transactionReason = .purchase
                var renewed = first
                renewed.transactionId = String(5_000_000_000_000_000 + serial)
                renewed.webOrderLineItemId = String(7_000_000_000_000_000 + serial)
                renewed.purchaseDate = first.expiresDate
                renewed.expiresDate = Timestamp(purchased + 2 * month)
                renewed.transactionReason = .renewal
                block.append((token, first, renewed))
            }
            for series in block { bodies.append((series.token, try body(.subscribed, .initialBuy, series.first))) }
            for series in block { bodies.append((series.token, try body(.didRenew, nil, series.renewed))) }
        }
        return bodies
    }

    private func body(_ type: NotificationTypeV2, _ subtype: Subtype?, _ transaction: JWSTransactionDecodedPayload) throws -> String {
        let renewal = JWSRenewalInfoDecodedPayload(
            originalTransactionId: transaction.originalTransactionId, autoRenewProductId: transaction.productId, productId: transaction.productId,
            autoRenewStatus: .on, isInBillingRetryPeriod: false, signedDate: Timestamp(Date()), environment: .sandbox,
            recentSubscriptionStartDate: transaction.originalPurchaseDate, renewalDate: transaction.expiresDate, currency: transaction.currency,
            renewalPrice: transaction.price, appAccountToken: transaction.appAccountToken)
        let payload = ResponseBodyV2DecodedPayload(
            notificationType: type, subtype: subtype, notificationUUID: UUID().uuidString.lowercased(),
            data: NotificationData(
                environment: .sandbox, appAppleId: 1, bundleId: bundleId, bundleVersion: "1", signedTransactionInfo: try ca.sign(transaction),
                signedRenewalInfo: try ca.sign(renewal), status: .active),
            version: "2.0", signedDate: Timestamp(Date()))
        return #"{"signedPayload":"\#(try ca.sign(payload))"}"#
    }
}
