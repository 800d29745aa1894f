import AppStoreServer
import AppStoreSimulator
import Crypto
import Foundation
import NIOHTTP1
import Storegate
import Testing

@testable import StoregateConsole

/// The support console over HTTP, as a browser uses it: sessions, CSRF tokens, roles, tenants kept apart,
/// sign-in limits and links, and finding a customer. (ConsoleBrowserTests drives it in Chromium.)
@Suite struct ConsoleTests {
    static let password = "correct horse battery"
    static let session = "__Host-storegate-session"

    static func person(_ s: Storefront, _ email: String, _ role: ConsoleUser.Role, password: String? = ConsoleTests.password) async throws -> String {
        try await s.capabilities.consoleUsers.add(tenant: s.tenant.tenant, email: email, role: role, password: password, actor: Actor("test")).link
    }

    /// A password signs in; the session's cookie is Secure, HttpOnly and SameSite=Strict; the overview shows
    /// the catalog; a form without
    /// the session's token is refused and writes nothing; bad input names its field; an action is audited
    /// with the person; signing out ends the session for good.
    @Test func aSessionSignsInActsWithItsTokenAndSignsOut() async throws {
        try await Storefront.with(slug: "console-http") { s in
            _ = try await Self.person(s, "Sam@Example.com", .support)
            _ = try await s.result("accounts.ensure", ["customerId": "ann"])
            _ = try await s.result("catalog.set", ["products": CatalogTests.products, "entitlements": CatalogTests.entitlements])
            let slug = s.tenant.tenant.slug
            let browser = ConsoleClient(baseURL: s.server.baseURL)
            #expect(try await browser.get("/console").location == "/console/sign-in")

            let wrong = try await browser.signIn(tenant: slug, email: "sam@example.com", password: "not the right one")
            #expect(wrong.status == 401 && wrong.text.contains("not right"))
            let signedIn = try await browser.signIn(tenant: slug, email: " SAM@example.com", password: Self.password)
            #expect(signedIn.status == 303 && signedIn.location == "/console")
            let cookie = signedIn.headers["set-cookie"].first { $0.hasPrefix(Self.session + "=") } ?? ""
            for attribute in ["Secure", "HttpOnly", "SameSite=Strict", "Path=/"] { #expect(cookie.contains(attribute), "\(attribute) in \(cookie)") }
            let overview = try await browser.get("/console")
            #expect(overview.status == 200 && overview.text.contains("<h1>Overview</h1>"), "\(overview.status) \(overview.text.prefix(600))")
            #expect(overview.headers.first(name: "content-security-policy")?.contains("default-src 'none'") == true)
            #expect(overview.text.components(separatedBy: "<svg class=\"chart\"").count == 6, "five charts: no money yet")
            #expect(overview.text.components(separatedBy: "<div class=\"chart-axis\"").count == 6 && !overview.text.contains("<text"), "labels in HTML")
            // A subscription bought: its money is charted too, and each chart's data is a CSV download.
            var bought = AppStoreServerAPIClientTests.subscription("ann-device")
            bought.purchaseDate = Date().addingTimeInterval(-2 * 86_400)
            _ = try await s.simulator.purchase(bought)
            try await s.processed(1)
            let charted = try await browser.get("/console?step=week")
            #expect(charted.text.contains("Revenue (USD)") && charted.text.contains("MRR (USD)"), "the money in its currency")
            #expect(charted.text.components(separatedBy: "<svg class=\"chart\"").count == 8, "five counts, revenue and MRR")
            let csv = try await browser.get("/console/figures.csv?step=day&chart=revenue-USD")
            #expect(csv.status == 200 && csv.headers.first(name: "content-type") == "text/csv; charset=utf-8")
            let lines = csv.text.split(separator: "\r\n")
            #expect(lines.first == "period,Revenue (USD)")
            #expect(lines.count == 31, "30 days and the header")
            #expect(lines.contains { $0.hasSuffix(",0.990") }, "the purchase's 0.99 USD on its day: \(csv.text)")
            let badRange = try await browser.get("/console?from=yesterday")
            #expect(badRange.status == 200 && badRange.text.contains("from must be a date"), "a bad range is said, the page still shown")
            let unknownChart = try await browser.get("/console/figures.csv?chart=nothing")
            #expect(unknownChart.status == 400)
            #expect(overview.text.contains("<td>pro</td><td>com.example.monthly, com.example.lifetime</td><td>Everything</td>"), "the catalog's entitlements")
            #expect(overview.text.contains("<td>com.example.coins</td><td>\(Storefront.bundleId)</td><td>Consumable</td><td>Coins</td>"), "and products")

            let page = try await browser.get("/console/customer?id=ann")
            let csrf = try #require(page.csrf)
            let grant = [("customerId", "ann"), ("entitlement", "pro"), ("days", "3"), ("reason", "the outage")]
            for token in [nil, "forged"] as [String?] {
                let refused = try await browser.post("/console/customer/grant", grant + (token.map { [("csrf", $0)] } ?? []))
                #expect(refused.status == 403 && refused.text.contains("CSRF"))
            }
            let bad = try await browser.post(
                "/console/customer/grant", [("csrf", csrf), ("customerId", "ann"), ("entitlement", "pro"), ("days", "many"), ("reason", "r")])
            #expect(bad.status == 400 && bad.text.contains("days must be a whole number"))
            #expect(try await s.capabilities.subscriptions.grants(tenant: s.tenant.tenant, customerId: "ann").isEmpty, "nothing refused was written")

            let granted = try await browser.post("/console/customer/grant", [("csrf", csrf)] + grant)
            #expect(granted.status == 303 && granted.location == "/console/customer?id=ann&done=granted")
            let grants = try await s.capabilities.subscriptions.grants(tenant: s.tenant.tenant, customerId: "ann")
            #expect(grants.map(\.grantedBy) == ["console:sam@example.com"])
            #expect(try await browser.get(granted.location ?? "").text.contains("The grant was made."))
            let audit = try await s.capabilities.persistence.inTenant(s.tenant.tenant, .read) { try await $0.auditLog() }
            #expect(audit.contains { $0.actor == "console:sam@example.com" && $0.action == "console.signIn" })
            #expect(audit.contains { $0.actor == "console:sam@example.com" && $0.action.hasPrefix("entitlement.grant") })

            let secret = try #require(browser[cookie: Self.session])
            let out = try await browser.post("/console/sign-out", [("csrf", csrf)])
            #expect(out.status == 303 && out.location == "/console/sign-in")
            #expect(try await s.capabilities.consoleUsers.session(secret: secret) == nil, "the session is gone, not only its cookie")
            #expect(try await browser.get("/console/customer?id=ann").location == "/console/sign-in")
        }
    }

    /// A viewer sees a customer but no actions, and a posted action is refused; no session reaches another
    /// tenant's customers, by URL or by search.
    @Test func aViewerCannotActAndNoTenantSeesAnother() async throws {
        try await Storefront.with(slug: "console-roles") { s in
            _ = try await Self.person(s, "vic@example.com", .viewer)
            _ = try await s.result("accounts.ensure", ["customerId": "ann"])
            let other = try await s.capabilities.tenants.create(slug: "console-other", name: "Other", actor: Actor("test"))
            _ = try await s.capabilities.accounts.ensure(tenant: other, customerId: "bob", actor: Actor("test"))

            let browser = ConsoleClient(baseURL: s.server.baseURL)
            #expect(try await browser.signIn(tenant: s.tenant.tenant.slug, email: "vic@example.com", password: Self.password).status == 303)
            let page = try await browser.get("/console/customer?id=ann")
            #expect(page.status == 200 && !page.text.contains("/console/customer/grant") && !page.text.contains("/console/customer/extend"))
            let csrf = try #require(page.csrf)
            let refused = try await browser.post(
                "/console/customer/grant", [("csrf", csrf), ("customerId", "ann"), ("entitlement", "pro"), ("days", "3"), ("reason", "viewer")])
            #expect(refused.status == 403 && refused.text.contains("Not allowed"))
            #expect(try await s.capabilities.subscriptions.grants(tenant: s.tenant.tenant, customerId: "ann").isEmpty)
            #expect(try await browser.get("/console/people").status == 403, "only admins see people")

            #expect(try await browser.get("/console/customer?id=bob").status == 404)
            #expect(try await browser.get("/console/search?q=bob").status == 404)
            let signedIn = try await browser.signIn(tenant: "console-other", email: "vic@example.com", password: Self.password)
            #expect(signedIn.status == 401, "a person of one tenant is no one in another")
        }
    }

    /// After five failed attempts in 15 minutes a person cannot sign in even with the right password;
    /// someone else still can.
    @Test func signInAttemptsAreLimitedPerPerson() async throws {
        try await Storefront.with(slug: "console-limit") { s in
            _ = try await Self.person(s, "sam@example.com", .support)
            _ = try await Self.person(s, "kim@example.com", .support)
            let slug = s.tenant.tenant.slug
            let browser = ConsoleClient(baseURL: s.server.baseURL)
            for attempt in 1...5 {
                #expect(try await browser.signIn(tenant: slug, email: "sam@example.com", password: "guess number \(attempt)!").status == 401)
            }
            let limited = try await browser.signIn(tenant: slug, email: "sam@example.com", password: Self.password)
            #expect(limited.status == 429 && limited.text.contains("Too many failed attempts"))
            #expect(try await browser.signIn(tenant: slug, email: "kim@example.com", password: Self.password).status == 303)
        }
    }

    /// 64 wrong passwords for one person and 64 for someone who does not exist, sent at once, each with a
    /// sign-in form of its own: exactly five of each are checked (401), every other one is refused before
    /// any hash with 429 and Retry-After, none fails; the person's right password is refused too until the
    /// window passes, and the server stays ready.
    @Test func aStormOfSignInsChecksOnlyThePromisedNumber() async throws {
        try await Storefront.with(slug: "console-storm") { s in
            _ = try await Self.person(s, "sam@example.com", .support)
            let slug = s.tenant.tenant.slug
            let attempts = (0..<128).map { i in
                (email: i % 2 == 0 ? "sam@example.com" : "nobody@example.com", browser: ConsoleClient(baseURL: s.server.baseURL))
            }
            var forms: [String] = []
            for attempt in attempts { forms.append(try #require(try await attempt.browser.get("/console/sign-in").csrf)) }
            let answers = try await withThrowingTaskGroup(of: (String, Int, String?).self) { group in
                for (i, attempt) in attempts.enumerated() {
                    let csrf = forms[i]
                    group.addTask {
                        let page = try await attempt.browser.post(
                            "/console/sign-in", [("csrf", csrf), ("tenant", slug), ("email", attempt.email), ("password", "wrong guess number \(i)")])
                        return (attempt.email, page.status, page.headers.first(name: "retry-after"))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for email in ["sam@example.com", "nobody@example.com"] {
                let statuses = answers.filter { $0.0 == email }.map(\.1)
                #expect(statuses.filter { $0 == 401 }.count == 5, "\(email): \(statuses.sorted())")
                #expect(statuses.filter { $0 == 429 }.count == 59, "\(email): \(statuses.sorted())")
            }
            #expect(answers.filter { $0.1 == 429 }.allSatisfy { $0.2 == "900" }, "429 says when to come back")
            let right = try await ConsoleClient(baseURL: s.server.baseURL).signIn(tenant: slug, email: "sam@example.com", password: Self.password)
            #expect(right.status == 429, "the right password waits for the window too")
            #expect(try await ConsoleClient(baseURL: s.server.baseURL).get("/readyz").status == 200)
        }
    }

    /// A one-time link printed for a person without a password signs them in once.
    @Test func aSignInLinkWorksOnce() async throws {
        try await Storefront.with(slug: "console-link") { s in
            let link = try await Self.person(s, "lee@example.com", .viewer, password: nil)
            let browser = ConsoleClient(baseURL: s.server.baseURL)
            #expect(try await browser.signIn(tenant: s.tenant.tenant.slug, email: "lee@example.com", password: "any password at all").status == 401)
            let page = try await browser.get("/console/link/\(link)")
            #expect(page.status == 200 && page.headers.first(name: "referrer-policy") == "no-referrer")
            let used = try await browser.post("/console/link", [("csrf", page.csrf ?? ""), ("token", link)])
            #expect(used.status == 303 && used.location == "/console")
            #expect(try await browser.get("/console").status == 200)

            let again = ConsoleClient(baseURL: s.server.baseURL)
            let second = try await again.get("/console/link/\(link)")
            #expect(try await again.post("/console/link", [("csrf", second.csrf ?? ""), ("token", link)]).status == 401)
        }
    }

    /// Support finds a customer by any identifier: their id, appAccountToken, a transaction ID, and an order
    /// ID Storegate had not seen (looked up with Apple, then kept); the query decoded as a form (`+` a space)
    /// and trimmed.
    @Test func aCustomerIsFoundByAnyIdentifier() async throws {
        try await Storefront.with(slug: "console-search") { s in
            let ann = try await s.result("accounts.ensure", ["customerId": "ann"])
            let uuid = try #require(UUID(uuidString: ann["appAccountToken"] as? String ?? ""))
            let token = uuid.uuidString.lowercased()
            let bought = try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("ann-device", token: uuid))
            try await s.processed(1)
            let orderId = try #require(await s.store.orderId(of: bought.transactionId ?? ""))
            _ = try await Self.person(s, "sam@example.com", .viewer)
            let browser = ConsoleClient(baseURL: s.server.baseURL)
            _ = try await browser.signIn(tenant: s.tenant.tenant.slug, email: "sam@example.com", password: Self.password)
            for query in ["ann", token, bought.transactionId ?? "", bought.originalTransactionId ?? "", orderId, orderId.lowercased()] {
                let found = try await browser.get("/console/search?q=\(query)")
                #expect(found.location == "/console/customer?id=ann", "\(query)")
            }
            // As a browser sends a GET form: spaces as `+`, the rest percent-encoded; surrounding spaces trimmed.
            _ = try await s.result("accounts.ensure", ["customerId": "ann smith@example.org"])
            for query in ["ann+smith%40example.org", "+ann%20smith%40example.org++", "++\(orderId)+"] {
                let found = try await browser.get("/console/search?q=\(query)")
                let expected = query.contains("smith") ? "/console/customer?id=ann%20smith%40example.org" : "/console/customer?id=ann"
                #expect(found.location == expected, "\(query)")
            }
            #expect(try await browser.get("/console/customer?id=ann+smith%40example.org").text.contains("ann smith@example.org"))
            let missing = try await browser.get("/console/search?q=nobody+at+all")
            #expect(missing.status == 404 && missing.text.contains("No customer matches \u{201C}nobody at all\u{201D}"))
        }
    }

    /// The timeline opens on the newest events; "Earlier events" and "Later events" page back and forth, each
    /// page in order, none lost or repeated.
    @Test func theTimelinePagesBothWays() async throws {
        try await Storefront.with(slug: "console-timeline") { s in
            _ = try await s.result("accounts.ensure", ["customerId": "ann"])
            let count = 60  // the page is 50
            for n in 1...count {
                _ = try await s.capabilities.subscriptions.grant(
                    tenant: s.tenant.tenant, customerId: "ann", bundleId: nil, productId: nil, entitlement: "premium", days: 30, expiresDate: nil,
                    reason: "grant \(n).", actor: Actor("test"))
            }
            _ = try await Self.person(s, "vic@example.com", .viewer)
            let browser = ConsoleClient(baseURL: s.server.baseURL)
            _ = try await browser.signIn(tenant: s.tenant.tenant.slug, email: "vic@example.com", password: Self.password)
            /// The grants the page's timeline shows, in order, and where its links go.
            func timeline(_ path: String) async throws -> (grants: [Int], earlier: String?, later: String?) {
                let page = try await browser.get(path)
                #expect(page.status == 200, "\(path)")
                let section = String(page.text.components(separatedBy: #"<h2 id="timeline">"#).last ?? "")
                let grants = section.components(separatedBy: "grant ").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
                func link(_ id: String) -> String? {
                    guard let range = section.range(of: #"" id="\#(id)""#) else { return nil }
                    let href = section[..<range.lowerBound].components(separatedBy: #"href=""#).last ?? ""
                    return href.replacingOccurrences(of: "&amp;", with: "&").components(separatedBy: "#").first
                }
                return (grants, link("earlier-events"), link("later-events"))
            }
            let newest = try await timeline("/console/customer?id=ann")
            #expect(newest.grants == Array((11...count).reversed()) && newest.later == nil)
            let earlier = try await timeline(try #require(newest.earlier))
            #expect(earlier.grants == Array((1...10).reversed()) && earlier.earlier == nil)
            let later = try await timeline(try #require(earlier.later))
            #expect(later.grants == newest.grants && later.later == nil && later.earlier == newest.earlier)
        }
    }

    /// Each event reads on the timeline as a sentence made from its type and data alone, never as its raw
    /// type; the identifiers are listed apart.
    @Test func timelineEventsReadAsSentences() {
        let monthly = #""productId":"com.example.monthly","productType":"Auto-Renewable Subscription""#
        let renewal = #"{"transactionId":"20","originalTransactionId":"10",\#(monthly),"expiresDate":"2026-12-27T10:00:00Z"}"#
        func state(_ status: String, autoRenew: Bool) -> String {
            #"{"status":"\#(status)","productId":"com.example.monthly","expiresDate":"2026-12-27T10:00:00Z","autoRenewStatus":\#(autoRenew)}"#
        }
        let cases: [(Event.Kind, String, String)] = [
            (.purchaseCreated, renewal, "Renewed com.example.monthly, until 2026-12-27 10:00 UTC"),
            (.purchaseCreated, #"{"transactionId":"10","originalTransactionId":"10",\#(monthly)}"#, "Subscribed to com.example.monthly"),
            (
                .purchaseCreated, #"{"transactionId":"21","originalTransactionId":"10",\#(monthly),"price":4990,"currency":"USD"}"#,
                "Renewed com.example.monthly, 4.99 USD"
            ),
            (.purchaseCreated, #"{"transactionId":"30","originalTransactionId":"30","productId":"coins","productType":"Consumable"}"#, "Bought coins"),
            (
                .subscriptionUpdated, #"{"previous":\#(state("active", autoRenew: true)),"current":\#(state("active", autoRenew: false))}"#,
                "Auto-renew turned off"
            ),
            (
                .subscriptionUpdated, #"{"previous":\#(state("active", autoRenew: true)),"current":\#(state("revoked", autoRenew: true))}"#,
                "com.example.monthly: access revoked"
            ),
            (.refundGranted, #"{"productId":"com.example.monthly","quantity":1,"refundPercentage":100000}"#, "Refunded com.example.monthly; access revoked"),
            (.refundDeclined, #"{"productId":"coins"}"#, "Apple declined a refund of coins"),
            (
                .subscriptionRenewalExtended, #"{"extendByDays":10,"extendReasonCode":1,"requestedBy":"console:sam@example.com"}"#,
                "Renewal date extended by 10 days (customer satisfaction), asked by console:sam@example.com"
            ),
            (
                .entitlementGranted,
                #"{"entitlement":"premium","expiresDate":"2026-12-04T13:00:00Z","reason":"the outage","grantedBy":"console:sam@example.com"}"#,
                "Granted premium until 2026-12-04 13:00 UTC (\u{201C}the outage\u{201D}), by console:sam@example.com"
            ),
            (.entitlementsChanged, #"{"before":["beta"],"after":["pro"],"added":["pro"],"removed":["beta"]}"#, "Access gained pro; lost beta"),
        ]
        for (type, json, sentence) in cases { #expect(TimelineSentences.sentence(type, json: json) == sentence, "\(type)") }
        #expect(TimelineSentences.identifiers(json: renewal).map(\.name) == ["transactionId", "originalTransactionId"])
        for type in Event.Kind.allCases {
            let sentence = TimelineSentences.sentence(type, json: "{}")
            #expect(!sentence.isEmpty && !sentence.contains(type.rawValue), "\(type): \(sentence)")
        }
    }

    /// From the customer's page, support answers a consumption request (exactly Apple's body is sent),
    /// revokes a grant and syncs from Apple; bad input names its field; an admin sees the tenant's people.
    @Test func supportActsFromTheCustomersPage() async throws {
        try await Storefront.with(slug: "console-acts") { s in
            let ann = try await s.result("accounts.ensure", ["customerId": "ann"])
            var coins = RefundDecisioningTests.coins("ann-device")
            coins.appAccountToken = try #require(UUID(uuidString: ann["appAccountToken"] as? String ?? ""))
            let id = try #require(try await s.simulator.purchase(coins).transactionId)
            try await s.processed(1)
            try await s.simulator.requestRefund(transactionId: id)
            try await s.processed(2)
            _ = try await Self.person(s, "ada@example.com", .admin)
            let browser = ConsoleClient(baseURL: s.server.baseURL)
            _ = try await browser.signIn(tenant: s.tenant.tenant.slug, email: "ada@example.com", password: Self.password)
            let page = try await browser.get("/console/customer?id=ann")
            #expect(page.text.contains("Consumption requests waiting") && page.text.contains("name=\"transactionId\" value=\"\(id)\""))
            let csrf = try #require(page.csrf)

            let answer = [
                ("csrf", csrf), ("customerId", "ann"), ("bundleId", Storefront.bundleId), ("transactionId", id), ("customerConsented", "true"),
                ("deliveryStatus", "DELIVERED"), ("refundPreference", "GRANT_PRORATED"),
            ]
            let tooMuch = try await browser.post("/console/customer/consumption", answer + [("consumedPercent", "150")])
            #expect(tooMuch.status == 400 && tooMuch.text.contains("consumedPercent must be 0 to 100"))
            let answered = try await browser.post("/console/customer/consumption", answer + [("consumedPercent", "25")])
            #expect(answered.location == "/console/customer?id=ann&done=answered")
            try await s.eventually("the consumption information sent") { await s.store.consumptionReports[id] != nil }
            let expected =
                #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"consumptionPercentage":25000,"refundPreference":"GRANT_PRORATED"}"#
            #expect(RefundDecisioningTests.canonical(await s.store.consumptionReports[id]) == RefundDecisioningTests.canonical(expected))

            let granted = try await browser.post(
                "/console/customer/grant", [("csrf", csrf), ("customerId", "ann"), ("entitlement", "premium"), ("days", "7"), ("reason", "outage")])
            #expect(granted.status == 303)
            let grantId = try #require(try await s.capabilities.subscriptions.grants(tenant: s.tenant.tenant, customerId: "ann").first?.grantId)
            let revoked = try await browser.post("/console/customer/revoke-grant", [("csrf", csrf), ("customerId", "ann"), ("grantId", grantId)])
            #expect(revoked.location == "/console/customer?id=ann&done=revoked")
            let grant = try await s.capabilities.subscriptions.grants(tenant: s.tenant.tenant, customerId: "ann").first
            #expect(grant?.revokedDate != nil && grant?.revokedBy == "console:ada@example.com")

            let synced = try await browser.post("/console/customer/sync", [("csrf", csrf), ("customerId", "ann")])
            #expect(synced.location == "/console/customer?id=ann&done=synced")
            let people = try await browser.get("/console/people")
            #expect(people.status == 200 && people.text.contains("ada@example.com"))
        }
    }

    /// Erasure from the customer's page: shown to admins only and refused to support; the customer id typed
    /// again to confirm (a mismatch names the field); then done, audited with the person, and the page gone.
    @Test func onlyAnAdminErasesACustomerAfterTypingTheirId() async throws {
        try await Storefront.with(slug: "console-erase") { s in
            _ = try await s.result("accounts.ensure", ["customerId": "eve"])
            _ = try await Self.person(s, "sam@example.com", .support)
            _ = try await Self.person(s, "ada@example.com", .admin)
            let support = ConsoleClient(baseURL: s.server.baseURL)
            _ = try await support.signIn(tenant: s.tenant.tenant.slug, email: "sam@example.com", password: Self.password)
            let supportPage = try await support.get("/console/customer?id=eve")
            #expect(supportPage.status == 200 && !supportPage.text.contains("erase-form"))
            let refused = try await support.post(
                "/console/customer/erase", [("csrf", try #require(supportPage.csrf)), ("customerId", "eve"), ("confirm", "eve")])
            #expect(refused.status == 403 && refused.text.contains("Only admins erase a customer"), "\(refused.text)")

            let admin = ConsoleClient(baseURL: s.server.baseURL)
            _ = try await admin.signIn(tenant: s.tenant.tenant.slug, email: "ada@example.com", password: Self.password)
            let page = try await admin.get("/console/customer?id=eve")
            #expect(page.text.contains("id=\"erase-form\""))
            let csrf = try #require(page.csrf)
            let mistyped = try await admin.post("/console/customer/erase", [("csrf", csrf), ("customerId", "eve"), ("confirm", "eva")])
            #expect(mistyped.status == 400 && mistyped.text.contains("confirm must be the customer id"), "\(mistyped.text)")
            #expect(try await s.result("customers.attributes", ["customerId": "eve"])["customerId"] as? String == "eve", "not erased")

            let erased = try await admin.post("/console/customer/erase", [("csrf", csrf), ("customerId", "eve"), ("confirm", "eve")])
            #expect(erased.status == 200 && erased.text.contains("Customer erased") && erased.text.contains("erased as ers_"), "\(erased.text)")
            #expect(try await admin.get("/console/customer?id=eve").status == 404)
            let audit = try await s.capabilities.audit.list(
                tenant: s.tenant.tenant, filter: AuditFilter(action: "customer.delete"), before: nil, limit: 10)
            #expect(audit.entries.map(\.actor) == ["console:ada@example.com"])
        }
    }

    /// A refunded subscription says so, with no renewal and no Extend form; so does an expired one, with why;
    /// an active one renews and can be extended.
    @Test func aSubscriptionSaysWhatHappenedToIt() async throws {
        try await Storefront.with(slug: "console-standing") { s in
            func subscribe(_ customerId: String) async throws -> String {
                let account = try await s.result("accounts.ensure", ["customerId": customerId])
                let token = try #require(UUID(uuidString: account["appAccountToken"] as? String ?? ""))
                let bought = try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("\(customerId)-device", token: token))
                return try #require(bought.transactionId)
            }
            let ann = try await subscribe("ann")
            let bea = try await subscribe("bea")
            _ = try await subscribe("cy")
            try await s.processed(3)
            _ = try await s.simulator.refund(transactionId: ann)
            try await s.simulator.setAutoRenew(originalTransactionId: bea, enabled: false)
            try await s.simulator.expire(originalTransactionId: bea)
            try await s.processed(6)
            _ = try await Self.person(s, "sam@example.com", .support)
            let browser = ConsoleClient(baseURL: s.server.baseURL)
            _ = try await browser.signIn(tenant: s.tenant.tenant.slug, email: "sam@example.com", password: Self.password)

            // The page reads customers' holdings through a cache that other changes reach by NOTIFY: waited for.
            func page(_ id: String, once saying: String) async throws -> String {
                var text = ""
                try await s.eventually("\(id)'s page says \(saying)") {
                    text = try await browser.get("/console/customer?id=\(id)").text
                    return text.contains(saying)
                }
                return text
            }
            let refunded = try await page("ann", once: "Refunded on ")
            #expect(refunded.contains(", access revoked</p>"), "\(refunded)")
            #expect(!refunded.contains("class=\"renewal\"") && !refunded.contains("class=\"extend\""), "no renewal, no Extend form")
            let expired = try await page("bea", once: "Expired on ")
            #expect(expired.contains("(the customer turned off auto-renew)"))
            #expect(!expired.contains("class=\"renewal\"") && !expired.contains("class=\"extend\""))
            let active = try await browser.get("/console/customer?id=cy").text
            #expect(active.contains("Active, renews on ") && active.contains("class=\"renewal\"") && active.contains("class=\"extend\""))
        }
    }

    /// When Apple fails an action, support reads what happened and what to try; the technical detail is
    /// folded away: Apple down (5xx, after Storegate's retries), then the app's key refused (401).
    @Test func appleFailuresAreSaidInPlainWords() async throws {
        try await Storefront.with(slug: "console-apple") { s in
            let ann = try await s.result("accounts.ensure", ["customerId": "ann"])
            let token = try #require(UUID(uuidString: ann["appAccountToken"] as? String ?? ""))
            let bought = try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("ann-device", token: token))
            try await s.processed(1)
            _ = try await Self.person(s, "sam@example.com", .support)
            let browser = ConsoleClient(baseURL: s.server.baseURL)
            _ = try await browser.signIn(tenant: s.tenant.tenant.slug, email: "sam@example.com", password: Self.password)
            let csrf = try #require(try await browser.get("/console/customer?id=ann").csrf)
            let extend = [
                ("csrf", csrf), ("customerId", "ann"), ("bundleId", Storefront.bundleId), ("originalTransactionId", bought.originalTransactionId ?? ""),
                ("days", "7"), ("reasonCode", "1"),
            ]
            await s.store.inject(.serverError, times: 4)
            let down = try await browser.post("/console/customer/extend", extend)
            await s.store.clearFaults()
            #expect(down.status == 502 && down.text.contains("<p>Apple did not answer; try again later.</p>"), "\(down.text)")
            #expect(down.text.contains("<details><summary>Technical detail</summary>") && down.text.contains("HTTP 500"))

            // The key was revoked in App Store Connect: Apple knows another one by its ID.
            await s.store.registerKey(
                bundleId: Storefront.bundleId, keyId: s.sim.key.keyId, issuerId: s.sim.key.issuerId, publicKey: P256.Signing.PrivateKey().publicKey)
            let refused = try await browser.post("/console/customer/extend", extend)
            #expect(refused.status == 502 && refused.text.contains("Apple refused this app"), "\(refused.text)")
            #expect(refused.text.contains("check the key ID, issuer ID and .p8 in App Store Connect") && refused.text.contains("(HTTP 401)</code>"))
        }
    }

    /// Apple's answers in words, by error code or HTTP status; other refusals name their field as before.
    @Test func appleAnswersReadInWords() {
        func text(_ code: Int64?, _ reason: String, field: String = "transactionId") -> String {
            FailureMessage(.appStore(field: field, code: code, reason: reason, retryable: false)).text
        }
        #expect(text(nil, "App Store Server API error - (HTTP 401)", field: "startDate").hasPrefix("Apple refused this app's In-App Purchase key"))
        #expect(text(4_040_010, "App Store Server API error 4040010 (HTTP 404)").hasPrefix("Apple does not know this transaction"))
        #expect(text(4_290_000, "App Store Server API error 4290000 (HTTP 429)") == "Apple is limiting requests; try again in a minute.")
        #expect(text(nil, "App Store Server API error - (HTTP 503)") == "Apple did not answer; try again later.")
        #expect(text(nil, "App Store Server API unreachable: connect timeout") == "Apple did not answer; try again later.")
        #expect(text(4_030_005, "App Store Server API error 4030005 (HTTP 403)").hasPrefix("Apple allows no more extensions"))
        #expect(FailureMessage(.invalid(field: "days", reason: "must be a whole number")) == FailureMessage(text: "days must be a whole number"))
    }

    /// The overview's figures are the tenant's own day by day: a subscription bought and renewed before its
    /// period ended (the renewal is charged now, its period starting at the old one's end) and coins bought
    /// and refunded, each on the UTC day of its own date; another tenant's count nowhere.
    @Test func theOverviewsFiguresAreTheTenantsOwn() async throws {
        try await Storefront.with(slug: "console-figures") { s in
            let ann = try await s.result("accounts.ensure", ["customerId": "ann"])
            let token = try #require(UUID(uuidString: ann["appAccountToken"] as? String ?? ""))
            var subscription = AppStoreServerAPIClientTests.subscription("ann-device", token: token)
            subscription.period = 30 * 86_400
            let bought = try await s.simulator.purchase(subscription)
            let renewed = try await s.simulator.renew(originalTransactionId: try #require(bought.originalTransactionId))
            var coins = RefundDecisioningTests.coins("ann-device")
            coins.appAccountToken = token
            let coin = try await s.simulator.purchase(coins)
            let refunded = try await s.simulator.refund(transactionId: try #require(coin.transactionId))
            try await s.processed(4)
            let other = try await s.capabilities.tenants.create(slug: "figures-other", name: "Other", actor: Actor("test"))
            _ = try await s.capabilities.apps.add(tenant: other, bundleId: "com.example.other", appAppleId: 7, environments: ["Sandbox"], actor: Actor("test"))

            // The overview's figures are metrics.get's: today holds the purchases, the renewal and the refund.
            let today = Date()
            func figures(_ tenant: Tenant) async throws -> MetricsPoint? {
                try await s.capabilities.metrics.metrics(
                    tenant: tenant, from: today, to: today, step: .day, bundleId: nil, productIds: nil, entitlement: nil, environment: nil,
                    storefront: nil
                ).points.first
            }
            let day = try #require(try await figures(s.tenant.tenant))
            #expect(day.newSubscriptions == 1 && day.renewals == 1 && day.purchases == 1 && day.refunds == 1, "\(day)")
            #expect(day.activeSubscriptions == 1)
            #expect(renewed.expiresDate == Timestamp((bought.expiresDate?.date ?? .distantPast).addingTimeInterval(30 * 86_400)), "one period on")
            _ = refunded
            let empty = try #require(try await figures(other))
            #expect(empty.newSubscriptions == 0 && empty.purchases == 0 && empty.activeSubscriptions == 0 && empty.money.isEmpty, "another tenant's figures")
        }
    }
}
