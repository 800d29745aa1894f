import AppStoreServer
import Foundation

/// Signs offers with a tenant's app key: the key is opened once and cached, every signing is audited
/// (who, app, kind, product, offer; never the signature).
public struct OfferService: Sendable {
    let persistence: any Persistence
    let signingKeys: SigningKeyStore
    /// Signers by tenant, app and key: signing needs no database round trip and no key parsing. A new
    /// key, or a removed key or app, is used or refused from the next offer on (see `CacheCoherence`).
    let signers: ExpiringCache<SignerKey, AppSigner>
    let audits: AuditBatcher

    init(persistence: any Persistence, signingKeys: SigningKeyStore, cacheTTL: Duration, coherence: CacheCoherence) {
        self.persistence = persistence
        self.signingKeys = signingKeys
        self.signers = ExpiringCache(ttl: cacheTTL, coherence: coherence) { key, _ in key.tenantId }
        self.audits = AuditBatcher(persistence: persistence)
    }

    public enum Kind: String, Sendable {
        case promotional, promotionalJWS, introductoryEligibility, advancedCommerceRequest
    }

    /// The signer for an app of the tenant; another tenant's app is simply not found.
    func signer(tenant: Tenant, bundleId: String, keyId: String?) async throws -> (App, OfferSigner) {
        let bundleId = try Validate.bundleId(bundleId)
        if let keyId { _ = try Validate.keyId(keyId) }
        let key = SignerKey(tenantId: tenant.id, bundleId: bundleId, keyId: keyId)
        let signer = try await signers.value(
            for: key,
            load: {
                let found = try await persistence.inTenant(tenant, .read) { try await $0.apps.signingKey(bundleId: bundleId, keyId: keyId) }
                guard let (app, key) = found else { throw StoregateError.notFound(field: "bundleId") }
                guard let key else { throw StoregateError.notFound(field: keyId == nil ? "bundleId" : "keyId") }
                let privateKey = try await signingKeys.privateKey(for: key, of: tenant)
                let signingKey = SigningKey(keyId: key.keyId, issuerId: key.issuerId.uuidString, bundleId: app.bundleId, privateKey: privateKey)
                return AppSigner(app: app, signer: OfferSigner(key: signingKey))
            })
        return (signer.app, signer.signer)
    }

    func audit(_ kind: Kind, app: App, actor: Actor, detail: [String: String]) async throws {
        // One dictionary, sized once (a merge made a second one per offer); the caller's members win, as before.
        var entry = [String: String](minimumCapacity: detail.count + 2)
        entry["kind"] = kind.rawValue
        entry["bundleId"] = app.bundleId
        for (key, value) in detail { entry[key] = value }
        try await audits.record(.init(actor: actor.description, tenantId: app.tenantId, action: "offer.sign", detail: entry))
    }

    public func signPromotional(
        tenant: Tenant, bundleId: String, keyId: String? = nil, productId: String, offerId: String, appAccountToken: UUID?, actor: Actor
    )
        async throws -> PromotionalOfferSignature
    {
        let productId = try Validate.storeIdentifier(productId, field: "productId")
        let offerId = try Validate.storeIdentifier(offerId, field: "offerId")
        let (app, signer) = try await signer(tenant: tenant, bundleId: bundleId, keyId: keyId)
        let signature = try signer.promotionalOffer(productId: productId, offerId: offerId, appAccountToken: appAccountToken)
        try await audit(.promotional, app: app, actor: actor, detail: ["productId": productId, "offerId": offerId])
        return signature
    }

    public func signPromotionalJWS(
        tenant: Tenant, bundleId: String, keyId: String? = nil, productId: String, offerId: String, transactionId: String?, actor: Actor
    )
        async throws -> String
    {
        let productId = try Validate.storeIdentifier(productId, field: "productId")
        let offerId = try Validate.storeIdentifier(offerId, field: "offerId")
        let transactionId = try transactionId.map { try Validate.transactionId($0, field: "transactionId") }
        let (app, signer) = try await signer(tenant: tenant, bundleId: bundleId, keyId: keyId)
        let jws = try signer.promotionalOfferJWS(productId: productId, offerIdentifier: offerId, transactionId: transactionId)
        try await audit(.promotionalJWS, app: app, actor: actor, detail: ["productId": productId, "offerId": offerId])
        return jws
    }

    public func signIntroductoryEligibility(
        tenant: Tenant, bundleId: String, keyId: String? = nil, productId: String, allowIntroductoryOffer: Bool, transactionId: String, actor: Actor
    ) async throws -> String {
        let productId = try Validate.storeIdentifier(productId, field: "productId")
        let transactionId = try Validate.transactionId(transactionId, field: "transactionId")
        let (app, signer) = try await signer(tenant: tenant, bundleId: bundleId, keyId: keyId)
        let jws = try signer.introductoryOfferEligibilityJWS(productId: productId, allowIntroductoryOffer: allowIntroductoryOffer, transactionId: transactionId)
        try await audit(
            .introductoryEligibility, app: app, actor: actor, detail: ["productId": productId, "allowIntroductoryOffer": String(allowIntroductoryOffer)])
        return jws
    }

    /// `requestJSON` is the Advanced Commerce request object, already serialized.
    public func signAdvancedCommerceRequest(
        tenant: Tenant, bundleId: String, keyId: String? = nil, requestJSON: Data, operation: String, actor: Actor
    )
        async throws -> String
    {
        let (app, signer) = try await signer(tenant: tenant, bundleId: bundleId, keyId: keyId)
        let jws = try signer.advancedCommerceRequestJWS(requestJSON: requestJSON)
        try await audit(.advancedCommerceRequest, app: app, actor: actor, detail: ["operation": operation])
        return jws
    }
}

struct SignerKey: Hashable, Sendable {
    let tenantId: UUID
    let bundleId: String
    let keyId: String?
}

struct AppSigner: Sendable {
    let app: App
    let signer: OfferSigner
}
