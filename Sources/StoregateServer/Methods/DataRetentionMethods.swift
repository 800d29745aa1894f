import Foundation
import JSONRPC
import Storegate

/// `dataRetention.*`: how long the tenant keeps notification payloads, events, webhook deliveries, audit
/// entries and ended console sessions. (Not Apple's Retention Messaging, which is `retention.*`.)
enum DataRetentionMethods {
    static let all = [get, set]

    static let windowsRule = Rule.range(Int64(DataRetention.minutes.lowerBound)...Int64(DataRetention.minutes.upperBound))

    @RPCParams struct SetParams {
        /// Minutes a processed notification's raw signedPayload is kept (the row stays: it is the duplicate check). Default 259200 (180 days).
        @Field(DataRetentionMethods.windowsRule) let notificationPayloads: Int64?
        /// Minutes an event is kept (`events.list`); its webhook deliveries go with it. Default 576000 (400 days).
        @Field(DataRetentionMethods.windowsRule) let events: Int64?
        /// Minutes a finished webhook delivery (delivered or given up) is kept after it finished. Default 43200 (30 days).
        @Field(DataRetentionMethods.windowsRule) let webhookDeliveries: Int64?
        /// Minutes an audit entry is kept (`audit.list`). Default 1051200 (730 days).
        @Field(DataRetentionMethods.windowsRule) let auditEntries: Int64?
        /// Minutes a console session is kept after it ended (expired or signed out). Default 43200 (30 days).
        @Field(DataRetentionMethods.windowsRule) let consoleSessions: Int64?

        var changes: [DataRetention.Kind: Int] {
            let given: [(DataRetention.Kind, Int64?)] = [
                (.notificationPayloads, notificationPayloads), (.events, events), (.webhookDeliveries, webhookDeliveries),
                (.auditEntries, auditEntries), (.consoleSessions, consoleSessions),
            ]
            return Dictionary(uniqueKeysWithValues: given.compactMap { kind, minutes in minutes.map { (kind, Int($0)) } })
        }
    }

    @RPCObject(title: "DataRetentionWindow") struct WindowView {
        let kind: DataRetention.Kind
        /// The window in force, in minutes: older rows are deleted (payloads dropped) by the data-retention job.
        @Field(DataRetentionMethods.windowsRule) let minutes: Int64
        /// Whether it is the default (the tenant set none for this kind).
        let isDefault: Bool
        /// The default window, in minutes.
        @Field(DataRetentionMethods.windowsRule) let defaultMinutes: Int64
        /// How many rows the job deleted of this kind so far (payloads dropped, for notificationPayloads).
        @Field(.minimum(0)) let deleted: Int64
        /// Everything of this kind older than this is gone; absent until the job deleted some.
        let deletedBefore: Date?
        /// When the job last deleted some of this kind.
        let lastDeletedAt: Date?

        init(_ window: DataRetentionService.Window) {
            kind = window.kind
            minutes = Int64(window.minutes)
            isDefault = window.isDefault
            defaultMinutes = Int64(window.defaultMinutes)
            deleted = window.deleted?.count ?? 0
            deletedBefore = window.deleted?.before
            lastDeletedAt = window.deleted?.lastRunAt
        }
    }

    @RPCObject struct Windows {
        /// Every kind, in this order: notificationPayloads, events, webhookDeliveries, auditEntries, consoleSessions.
        let windows: [WindowView]
    }

    static let get = RPCMethod<RPCCall>(
        "dataRetention.get", tag: "dataRetention", summary: "How long the tenant keeps each kind of data.",
        description: """
            The caller's tenant's data-retention windows, each with its default and what the job deleted so far. A job deletes what is \
            older, in small batches, about hourly: processed notifications' raw signed payloads (the rows stay), events with their \
            webhook deliveries, finished webhook deliveries, audit entries, and console sessions that ended.
            """,
        result: "dataRetention", errors: []
    ) { (_: NoParams, call) in
        Windows(windows: try await call.capabilities.dataRetention.windows(tenant: call.caller.tenant).map(WindowView.init))
    }

    static let set = RPCMethod<RPCCall>(
        "dataRetention.set", tag: "dataRetention", summary: "Sets how long the tenant keeps kinds of data.",
        description: """
            Each window given is set, in whole minutes from 1 to 52560000 (100 years; there is no "forever"); those left out stay as \
            they are. Audited. The next run of the job (within the hour) deletes what the new windows leave out. Deleted events cannot \
            be rolled up again: `storegate metrics rebuild` refuses once events were deleted.
            """,
        result: "dataRetention", errors: [ErrorCode.invalidParams]
    ) { (params: SetParams, call) in
        Windows(
            windows: try await call.capabilities.dataRetention.set(tenant: call.caller.tenant, params.changes, actor: call.caller.actor).map(
                WindowView.init))
    }
}
