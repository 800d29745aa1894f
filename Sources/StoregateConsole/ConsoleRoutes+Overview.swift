import AppStoreServer
import Foundation
import Hummingbird
import HummingbirdAuth
import Storegate

/// The tenant's overview, the search box's answer, and the tenant's people.
extension ConsoleRoutes {
    struct SearchQuery: Decodable {
        @Trimmed var q: String?
    }

    /// The figures' range on the overview, as its form sends it (all optional: the last 30 days by day).
    struct FiguresQuery: Decodable {
        @Trimmed var from: String?
        @Trimmed var to: String?
        @Trimmed var step: String?
        @Trimmed var app: String?
        /// For the CSV download: which chart.
        @Trimmed var chart: String?
    }

    /// The range asked for, checked: dates as YYYY-MM-DD (UTC), a step Storegate knows.
    struct FiguresRange {
        let from: Date
        let to: Date
        let step: MetricsStep
        let app: String?

        init(_ query: FiguresQuery, now: Date = Date()) throws {
            func day(_ text: String?, _ field: String, _ fallback: Date) throws -> Date {
                guard let text, !text.isEmpty else { return fallback }
                guard let date = try? Date(text + "T00:00:00Z", strategy: .iso8601) else {
                    throw StoregateError.invalid(field: field, reason: "must be a date such as 2026-11-01")
                }
                return date
            }
            let today = MetricsService.calendar.startOfDay(for: now)
            to = try day(query.to, "to", today)
            from = try day(query.from, "from", to.addingTimeInterval(-29 * 86_400))
            guard let step = MetricsStep(rawValue: query.step.flatMap { $0.isEmpty ? nil : $0 } ?? "day") else {
                throw StoregateError.invalid(field: "step", reason: "must be day, week or month")
            }
            self.step = step
            app = query.app.flatMap { $0.isEmpty ? nil : $0 }
        }

        static func text(_ date: Date) -> String { String(ISO8601DateFormatter().string(from: date).prefix(10)) }

        /// The range as the overview's and the CSV's query.
        var query: String {
            "from=\(Self.text(from))&to=\(Self.text(to))&step=\(step.rawValue)" + (app.map { "&app=" + ConsoleRoutes.query($0) } ?? "")
        }
    }

    /// The overview's charts: the counts, then each currency's revenue and MRR (the largest by revenue
    /// first, at most three), each with its values by period.
    static func charts(_ report: MetricsReport) -> [(key: String, title: String, values: [Double], money: String?)] {
        let points = report.points
        var charts: [(key: String, title: String, values: [Double], money: String?)] = [
            ("activeSubscriptions", "Active subscriptions", points.map { Double($0.activeSubscriptions) }, nil),
            ("newSubscriptions", "New subscriptions", points.map { Double($0.newSubscriptions) }, nil),
            ("trialConversions", "Trial conversions", points.map { Double($0.trialConversions) }, nil),
            ("churned", "Churned", points.map { Double($0.churnedVoluntary + $0.churnedBilling + $0.churnedOther) }, nil),
            ("refunds", "Refunds", points.map { Double($0.refunds) }, nil),
        ]
        var revenue: [String: Int64] = [:]
        for point in points { for money in point.money { revenue[money.currency, default: 0] += money.revenue } }
        for currency in revenue.filter({ $0.value > 0 }).sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }).prefix(3).map(\.key) {
            let amount = { (point: MetricsPoint, figure: (MetricsMoney) -> Int64) in
                Double(point.money.first { $0.currency == currency }.map(figure) ?? 0) / 1000
            }
            charts.append(("revenue-\(currency)", "Revenue (\(currency))", points.map { amount($0, \.revenue) }, currency))
            charts.append(("mrr-\(currency)", "MRR (\(currency))", points.map { amount($0, \.mrr) }, currency))
        }
        return charts
    }

    /// One chart's data as CSV: the period and its value.
    @Sendable func figuresCSV(_ request: Request, context: Context) async throws -> Response {
        let session = try context.requireIdentity()
        let query = try request.uri.decodeQuery(as: FiguresQuery.self, context: context)
        let range: FiguresRange
        var csv: String
        do {
            range = try FiguresRange(query)
            if query.chart == "cohorts" || query.chart == "arpu" {
                let report = try await capabilities.metrics.cohorts(
                    tenant: session.tenant, from: range.from, to: range.to, bundleId: range.app, productIds: nil, entitlement: nil, environment: nil,
                    storefront: nil)
                csv = query.chart == "cohorts" ? Self.cohortsCSV(report) : Self.arpuCSV(report)
            } else {
                let report = try await capabilities.metrics.metrics(
                    tenant: session.tenant, from: range.from, to: range.to, step: range.step, bundleId: range.app, productIds: nil, entitlement: nil,
                    environment: nil, storefront: nil)
                guard let chart = Self.charts(report).first(where: { $0.key == query.chart }) else {
                    throw StoregateError.invalid(field: "chart", reason: "is not a chart of the overview")
                }
                csv = "period," + ExportWriter.cell(chart.title) + "\r\n"
                for (point, value) in zip(report.points, chart.values) {
                    csv += FiguresRange.text(point.start) + "," + (chart.money == nil ? String(Int(value)) : String(format: "%.3f", value)) + "\r\n"
                }
            }
        } catch let error as StoregateError {
            return pages.message("Figures", FailureMessage(error).text, session: session, status: Self.status(error))
        }
        let name = query.chart ?? "figures"
        var headers = HTTPFields()
        headers[.contentType] = "text/csv; charset=utf-8"
        headers[.contentDisposition] = "attachment; filename=\"\(name)-\(FiguresRange.text(range.from))-\(FiguresRange.text(range.to)).csv\""
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: csv)))
    }

    @Sendable func overview(_ request: Request, context: Context) async throws -> Response {
        let session = try context.requireIdentity()
        let tenant = session.tenant
        let query = try request.uri.decodeQuery(as: FiguresQuery.self, context: context)
        var rangeError: String?
        var range = try FiguresRange(FiguresQuery())
        do { range = try FiguresRange(query) } catch let error as StoregateError { rangeError = FailureMessage(error).text }
        let asked = range
        async let report = capabilities.metrics.metrics(
            tenant: tenant, from: asked.from, to: asked.to, step: asked.step, bundleId: asked.app, productIds: nil, entitlement: nil, environment: nil,
            storefront: nil)
        async let cohortReport = capabilities.metrics.cohorts(
            tenant: tenant, from: asked.from, to: asked.to, bundleId: asked.app, productIds: nil, entitlement: nil, environment: nil, storefront: nil)
        async let overview = capabilities.overview(tenant: tenant)
        async let apps = capabilities.apps.list(tenant: tenant)
        async let endpoints = capabilities.webhooks.list(tenant: tenant)
        async let failing = capabilities.webhooks.deliveries(
            tenant: tenant, endpointId: nil, status: WebhookDelivery.Status.failed.rawValue, before: nil, limit: 20)
        async let catalog = capabilities.catalog.catalog(tenant: tenant)
        async let retention = capabilities.dataRetention.windows(tenant: tenant)
        let (figures, appList, endpointList, failed, products, windows) = try await (overview, apps, endpoints, failing, catalog, retention)
        var metrics: MetricsReport?
        var cohorts: CohortsReport?
        do {
            metrics = try await report
            cohorts = try await cohortReport
        } catch let error as StoregateError { rangeError = FailureMessage(error).text }
        let bundleIds = Dictionary(appList.map { ($0.app.id, $0.app.bundleId) }, uniquingKeysWith: { first, _ in first })
        let urls = Dictionary(endpointList.map { ($0.id, $0.url) }, uniquingKeysWith: { first, _ in first })

        let points = metrics?.points ?? []
        let (first, last) = (points.first.map { FiguresRange.text($0.start) } ?? "", points.last.map { FiguresRange.text($0.start) } ?? "")
        let charts =
            metrics.map(Self.charts)?.map { key, title, values, money in
                let format = { (value: Double) in money == nil ? String(Int(value)) : String(format: "%.2f", value) }
                let chart = Chart(title: title, values: values, format: format, firstLabel: first, lastLabel: last)
                return [
                    "title": title, "latest": format(values.last ?? 0), "svg": chart.svg, "max": chart.maxLabel, "first": chart.firstLabel,
                    "last": chart.lastLabel,
                    "csv": "/console/figures.csv?\(range.query)&chart=\(Self.query(key))",
                ]
            } ?? []
        let own = tenant.reconciliation
        let sweeps = own.sweepMinutes.map { $0 == 0 ? "Not swept (the tenant's manifest)." : "Swept every \($0) minutes (the tenant's manifest)." }
        let checks = own.renewalCheckMinutes.map { " Renewals checked \($0) minutes after expiry (the tenant's manifest)." } ?? ""
        var model: [String: Any] = [
            "reconciliation": (sweeps ?? "Swept as the server is set (storegate serve --sweep-minutes).") + checks,
            "charts": charts,
            "retention": windows.map { window in
                [
                    "kind": window.kind.rawValue, "label": Self.retentionLabel(window.kind),
                    "keptFor": DataRetention.describe(minutes: window.minutes),
                    "setBy": window.isDefault ? "default" : "the tenant", "deleted": String(window.deleted?.count ?? 0),
                ]
            },
            "from": FiguresRange.text(range.from), "to": FiguresRange.text(range.to),
            "steps": MetricsStep.allCases.map { ["value": $0.rawValue, "selected": $0 == range.step] },
            "appChoices": [["value": "", "label": "every app", "selected": range.app == nil]]
                + appList.map { ["value": $0.app.bundleId, "label": $0.app.bundleId, "selected": $0.app.bundleId == range.app] },
            "entitlements": products.entitlements.map { entitlement in
                [
                    "name": entitlement.name, "description": entitlement.description,
                    "products": entitlement.productIds.isEmpty ? "no product (grants only)" : entitlement.productIds.joined(separator: ", "),
                ]
            },
            "products": products.products.map { product in
                [
                    "productId": product.productId, "bundleId": product.bundleId, "type": product.type.rawValue,
                    "displayName": product.displayName + (product.subscriptionGroup.map { " (group \($0))" } ?? ""),
                ]
            },
            "apps": appList.map { details in
                [
                    "bundleId": details.app.bundleId, "environments": details.app.environments.map(\.rawValue).joined(separator: ", "),
                    "keys": details.keys.isEmpty ? "none" : details.keys.map(\.keyId).joined(separator: ", "),
                ]
            },
            "sweeps": figures.sweeps.map { sweep in
                [
                    "bundleId": bundleIds[sweep.appId] ?? sweep.appId.uuidString, "environment": sweep.environment.rawValue,
                    "sweptUntil": shown(sweep.sweptUntil), "lastRun": shown(sweep.lastRunAt), "runs": String(sweep.runs), "found": String(sweep.found),
                    "applied": String(sweep.applied), "failed": String(sweep.failed), "lastError": sweep.lastError ?? "",
                ]
            },
            "webhooks": endpointList.map { endpoint in
                [
                    "url": endpoint.url, "eventTypes": endpoint.eventTypes.isEmpty ? "all" : endpoint.eventTypes.map(\.rawValue).joined(separator: ", "),
                    "state": endpoint.failingSince.map { "failing since " + shown($0) } ?? endpoint.status,
                ]
            },
            "failing": failed.map { delivery in
                [
                    "eventType": delivery.eventType.rawValue, "url": urls[PrefixedID.encode("we_", delivery.endpointId)] ?? "",
                    "attempts": String(delivery.attempts.count),
                    "lastError": delivery.attempts.last.map { $0.error ?? $0.statusCode.map { "HTTP \($0)" } ?? "" } ?? "",
                    "status": delivery.status.rawValue,
                ]
            },
        ]
        if let cohorts {
            model.merge(Self.cohortModel(cohorts)) { $1 }
            model["cohortsCSV"] = "/console/figures.csv?\(range.query)&chart=cohorts"
            model["arpuCSV"] = "/console/figures.csv?\(range.query)&chart=arpu"
        }
        if let rangeError { model["rangeError"] = rangeError }
        return pages.page("overview", model, frame: Pages.Frame(title: "Overview", session: session))
    }

    @Sendable func search(_ request: Request, context: Context) async throws -> Response {
        let session = try context.requireIdentity()
        let query = try request.uri.decodeQuery(as: SearchQuery.self, context: context).q ?? ""
        var frame = Pages.Frame(title: "Find a customer", session: session)
        frame.query = query
        do {
            var found = try await capabilities.accounts.find(tenant: session.tenant, query: query)
            if found == nil { found = try await lookUpOrder(query, session) }
            guard let customerId = found else {
                frame.error = "No customer matches \u{201C}\(query)\u{201D}: try their customer id, appAccountToken, a transaction ID or an order ID."
                return pages.page(
                    "message", ["heading": "Not found", "message": "", "back": "/console", "backLabel": "Overview"], frame: frame,
                    status: .notFound)
            }
            return Pages.redirect("/console/customer?id=\(Self.query(customerId))")
        } catch let error as StoregateError {
            let message = FailureMessage(error)
            (frame.error, frame.errorDetail) = (message.text, message.detail)
            return pages.page(
                "message", ["heading": "Find a customer", "message": "", "back": "/console", "backLabel": "Overview"], frame: frame,
                status: Self.status(error))
        }
    }

    /// An order ID Storegate has not seen: Apple's Look Up Order ID, for each app until one knows it, keeps
    /// the order's transactions and links them to their owner, who is the customer found.
    func lookUpOrder(_ query: String, _ session: ConsoleSession) async throws -> String? {
        guard let orderId = try? Validate.orderId(query.uppercased(), field: "q"), Int(orderId) == nil else { return nil }
        for details in try await capabilities.apps.list(tenant: session.tenant) where !details.keys.isEmpty {
            let order = try await capabilities.refunds.lookupOrder(
                tenant: session.tenant, bundleId: details.app.bundleId, orderId: orderId, customerId: nil, actor: session.user.actor)
            if order.valid, let customerId = order.customerId { return customerId }
        }
        return nil
    }

    @Sendable func people(_ request: Request, context: Context) async throws -> Response {
        let session = try context.requireIdentity()
        guard session.user.role.mayManagePeople else {
            return pages.message("Not allowed", "Only admins see the tenant's people.", session: session, status: .forbidden)
        }
        let people = try await capabilities.consoleUsers.list(tenant: session.tenant).map { user in
            ["email": user.email, "role": user.role.rawValue, "password": user.hasPassword ? "set" : "link only", "lastSignIn": shown(user.lastSignInAt)]
        }
        return pages.page("people", ["people": people], frame: Pages.Frame(title: "People", session: session))
    }

    /// What a data-retention kind is called on the overview.
    static func retentionLabel(_ kind: DataRetention.Kind) -> String {
        switch kind {
        case .notificationPayloads: "Notification payloads (Apple's signed copies)"
        case .events: "Events, with their webhook deliveries"
        case .webhookDeliveries: "Finished webhook deliveries"
        case .auditEntries: "Audit entries"
        case .consoleSessions: "Ended console sessions"
        }
    }
}
