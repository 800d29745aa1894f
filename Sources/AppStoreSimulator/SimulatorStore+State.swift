import AppStoreServer
import Crypto
import Foundation

/// What the simulator keeps across restarts (`storegate simulator --state-dir`): apps and their keys,
/// customers' transactions, renewal info and app transactions, orders, notification URLs and history,
/// consumption reports, extensions, Retention Messaging, and the next ID, so that IDs go on past those it
/// issued. Faults, the requests it received, test notifications and mass extensions are not kept.
extension SimulatorStore {
    struct State: Codable {
        struct App: Codable {
            let bundleId: String
            let appAppleId: Int64?
            let environment: String
            let keys: [Key]
        }

        struct Key: Codable {
            let keyId: String
            let issuerId: String
            let publicKey: String
        }

        struct Notification: Codable {
            let bundleId: String
            let payload: ResponseBodyV2DecodedPayload
            let signed: String
            let attempts: [SendAttemptItem]
        }

        var apps: [App]
        var transactions: [String: JWSTransactionDecodedPayload]
        var transactionOrder: [String]
        var customerOf: [String: String]
        var appTransactions: [String: AppTransaction]
        var renewals: [String: JWSRenewalInfoDecodedPayload]
        var orders: [String: [String]]
        var consumptionReports: [String: Data]
        var notificationHistory: [Notification]
        var notificationURLs: [String: String]
        var periods: [String: TimeInterval]
        var appAccountTokens: [String: LowercaseUUID]
        var extensions: [String: [Date]]
        var retention: [String: RetentionMessaging]
        var nextId: Int64
    }

    var state: State {
        State(
            apps: apps.values.sorted { $0.bundleId < $1.bundleId }.map { app in
                State.App(
                    bundleId: app.bundleId, appAppleId: app.appAppleId, environment: app.environment.rawValue,
                    keys: app.keys.sorted { $0.key < $1.key }.map {
                        State.Key(keyId: $0.key, issuerId: $0.value.issuerId, publicKey: $0.value.publicKey.pemRepresentation)
                    })
            },
            transactions: transactions, transactionOrder: transactionOrder, customerOf: customerOf, appTransactions: appTransactions, renewals: renewals,
            orders: orders, consumptionReports: consumptionReports,
            notificationHistory: notificationHistory.map {
                State.Notification(bundleId: $0.bundleId, payload: $0.payload, signed: $0.signed, attempts: $0.attempts)
            },
            notificationURLs: notificationURLs, periods: periods, appAccountTokens: appAccountTokens, extensions: extensions, retention: retention,
            nextId: nextId)
    }

    func restore(_ state: State) throws {
        for app in state.apps {
            var restored = App(bundleId: app.bundleId, appAppleId: app.appAppleId, environment: AppStoreEnvironment(rawValue: app.environment))
            for key in app.keys { restored.keys[key.keyId] = (key.issuerId, try P256.Signing.PublicKey(pemRepresentation: key.publicKey)) }
            apps[app.bundleId] = restored
        }
        transactions = state.transactions
        transactionOrder = state.transactionOrder
        customerOf = state.customerOf
        appTransactions = state.appTransactions
        renewals = state.renewals
        orders = state.orders
        consumptionReports = state.consumptionReports
        notificationHistory = state.notificationHistory.map { ($0.bundleId, $0.payload, $0.signed, $0.attempts) }
        notificationURLs = state.notificationURLs
        periods = state.periods
        appAccountTokens = state.appAccountTokens
        extensions = state.extensions
        retention = state.retention
        nextId = max(nextId, state.nextId)
    }

    /// Writes what the simulator knows to `file` (atomically: a crash leaves the previous state).
    public func save(to file: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(state).write(to: file, options: .atomic)
    }

    /// Reads back what `save(to:)` wrote; a missing file is a first start.
    public func load(from file: URL) throws {
        guard FileManager.default.fileExists(atPath: file.path) else { return }
        try restore(try JSONDecoder().decode(State.self, from: Data(contentsOf: file)))
    }
}
