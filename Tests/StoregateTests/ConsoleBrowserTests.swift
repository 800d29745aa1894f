import AppStoreServer
import AppStoreSimulator
import Foundation
import Storegate
import Testing

/// The support console in a real browser: Debian's Chromium driven by Selenium (Tests/Browser/console_test.py)
/// against a running Storegate and the App Store simulator. Screenshots are saved in
/// `STOREGATE_CONSOLE_SCREENSHOTS` (default `.build/console-screenshots`); the README shows them.
@Suite struct ConsoleBrowserTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = root.appendingPathComponent("Tests/Browser/console_test.py").path

    static func screenshots() -> String {
        if let given = ProcessInfo.processInfo.environment["STOREGATE_CONSOLE_SCREENSHOTS"], !given.isEmpty { return given }
        return root.path + "/.build/console-screenshots"
    }

    /// A customer with a subscription bought through the simulator; its original transaction ID.
    static func subscribe(_ s: Storefront, _ customerId: String) async throws -> String {
        let account = try await s.result("accounts.ensure", ["customerId": customerId])
        let token = try #require(UUID(uuidString: account["appAccountToken"] as? String ?? ""))
        let bought = try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("\(customerId)-device", token: token))
        return try #require(bought.originalTransactionId)
    }

    @Test func supportStaffWorkACaseInChromium() async throws {
        try await Storefront.with(slug: "console-browser") { s in
            let ann = try await s.result("accounts.ensure", ["customerId": "ann@example.org"])
            let token = try #require(UUID(uuidString: ann["appAccountToken"] as? String ?? ""))
            let bought = try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("ann-device", token: token))
            try await s.processed(1)
            let orderId = try #require(await s.store.orderId(of: bought.transactionId ?? ""))
            // A long story: a subscription renewed 50 times, a purchase.created each (and a subscription.updated for
            // each renewal applied in order), enough for two timeline pages.
            let tess = try await Self.subscribe(s, "tess@example.org")
            for _ in 1...50 { _ = try await s.simulator.renew(originalTransactionId: tess) }
            // A subscription Apple refunded.
            _ = try await s.simulator.refund(transactionId: try await Self.subscribe(s, "rex@example.org"))
            try await s.processed(54)
            // The overview says the windows: one the tenant set, the others their defaults.
            _ = try await s.capabilities.dataRetention.set(tenant: s.tenant.tenant, [.events: 1440], actor: Actor("test"))
            let other = try await s.capabilities.tenants.create(slug: "console-neighbour", name: "Neighbour", actor: Actor("test"))
            _ = try await s.capabilities.accounts.ensure(tenant: other, customerId: "bob", actor: Actor("test"))
            _ = try await s.result("accounts.ensure", ["customerId": "leaving@example.org"])
            _ = try await s.result("customers.addNote", ["customerId": "leaving@example.org", "text": "Asked to be forgotten."])
            for (email, role) in [("sam@example.com", ConsoleUser.Role.support), ("vic@example.com", .viewer), ("ada@example.com", .admin)] {
                _ = try await s.capabilities.consoleUsers.add(
                    tenant: s.tenant.tenant, email: email, role: role, password: ConsoleTests.password, actor: Actor("test"))
            }
            let screenshots = Self.screenshots()
            let run = try await Subprocess.run(
                "/usr/bin/env",
                [
                    "python3", Self.script, "--url", s.server.baseURL, "--tenant", s.tenant.tenant.slug, "--email", "sam@example.com", "--password",
                    ConsoleTests.password, "--viewer-email", "vic@example.com", "--viewer-password", ConsoleTests.password, "--admin-email",
                    "ada@example.com", "--admin-password", ConsoleTests.password, "--order-id", orderId, "--customer", "ann@example.org",
                    "--other-customer", "bob", "--timeline-customer", "tess@example.org", "--revoked-customer", "rex@example.org",
                    "--erasable-customer", "leaving@example.org", "--screenshots",
                    screenshots,
                ],
                environment: ProcessInfo.processInfo.environment, limit: .seconds(240))
            #expect(run.status == 0, "the browser's checks:\n\(run.stdout)\n\(run.stderr)")
            #expect(!run.stdout.contains("FAIL") && run.stdout.contains("ok   the renewal date moved later"), "\(run.stdout)")
            let extended = try await s.capabilities.subscriptions.status(
                tenant: s.tenant.tenant, customerId: "ann@example.org", bundleId: nil, transactionId: nil, refresh: false)
            #expect(extended.first?.expiresDate.map { $0 > (bought.expiresDate?.date ?? .distantFuture) } == true, "stored later, not only shown")
            for shot in [
                "1-sign-in", "2-overview", "3-customer", "4-extended", "5-granted", "6-viewer", "7-phone", "8-timeline-earlier", "9-revoked",
                "10-phone-cohorts", "11-audit", "12-phone-audit", "13-erase",
            ] {
                #expect(FileManager.default.fileExists(atPath: screenshots + "/\(shot).png"), "\(shot).png saved")
            }
        }
    }
}
