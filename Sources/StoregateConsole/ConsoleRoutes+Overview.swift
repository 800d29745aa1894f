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

    @Sendable func overview(_ request: Request, context: Context) async throws -> Response {
        let session = try context.requireIdentity()
        let tenant = session.tenant
        async let overview = capabilities.overview(tenant: tenant)
        async let apps = capabilities.apps.list(tenant: tenant)
        async let endpoints = capabilities.webhooks.list(tenant: tenant)
        async let failing = capabilities.webhooks.deliveries(
            tenant: tenant, endpointId: nil, status: WebhookDelivery.Status.failed.rawValue, before: nil, limit: 20)
        async let catalog = capabilities.catalog.catalog(tenant: tenant)
        let (figures, appList, endpointList, failed, products) = try await (overview, apps, endpoints, failing, catalog)
        let bundleIds = Dictionary(appList.map { ($0.app.id, $0.app.bundleId) }, uniquingKeysWith: { first, _ in first })
        let urls = Dictionary(endpointList.map { ($0.id, $0.url) }, uniquingKeysWith: { first, _ in first })

        let days = figures.days
        let (first, last) = (days.first.map { shown($0.day).prefix(10) } ?? "", days.last.map { shown($0.day).prefix(10) } ?? "")
        let count = { (value: Double) in String(Int(value)) }
        let percent = { (value: Double) in String(format: "%.1f%%", value * 100) }
        let charts = [
            ("Active subscriptions", days.map { Double($0.activeSubscriptions) }, count),
            ("New purchases", days.map { Double($0.purchases) }, count),
            ("Renewals", days.map { Double($0.renewals) }, count),
            ("Refunds", days.map { Double($0.refunds) }, count),
            ("Refund rate", days.map(\.refundRate), percent),
        ].map { title, values, format in
            let chart = Chart(title: title, values: values, format: format, firstLabel: String(first), lastLabel: String(last))
            return [
                "title": title, "latest": format(values.last ?? 0), "svg": chart.svg, "max": chart.maxLabel, "first": chart.firstLabel, "last": chart.lastLabel,
            ]
        }
        let own = tenant.reconciliation
        let sweeps = own.sweepMinutes.map { $0 == 0 ? "Not swept (the tenant's manifest)." : "Swept every \($0) minutes (the tenant's manifest)." }
        let checks = own.renewalCheckMinutes.map { " Renewals checked \($0) minutes after expiry (the tenant's manifest)." } ?? ""
        let model: [String: Any] = [
            "reconciliation": (sweeps ?? "Swept as the server is set (storegate serve --sweep-minutes).") + checks,
            "charts": charts,
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
}
