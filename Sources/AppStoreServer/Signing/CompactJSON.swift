import Contract

/// JWS claims written straight to JSON bytes, in declaration order, without `JSONEncoder`: offer signing
/// is a hot path, and the generic encoder cost as much as the signature. Output is what `JSONEncoder`
/// with `.withoutEscapingSlashes` writes: nil members left out, `"`, `\` and control characters escaped.
protocol CompactJSON {
    func write(to object: inout JSONObjectWriter)
}

extension CompactJSON {
    var compactJSON: [UInt8] {
        var object = JSONObjectWriter()
        write(to: &object)
        return object.finish()
    }
}

struct JSONObjectWriter {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]

    init() { bytes.reserveCapacity(256) }

    mutating func add(_ key: String, _ value: String?) {
        guard let value else { return }
        member(key)
        string(value)
    }

    mutating func add(_ key: String, _ value: Int64) {
        member(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func add(_ key: String, _ value: Bool) {
        member(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    func finish() -> [UInt8] { bytes + [UInt8(ascii: "}")] }

    private mutating func member(_ key: String) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func string(_ value: String) {
        JSONValue.writeString(value, to: &bytes)
    }
}

/// The claims every JWS signed for StoreKit ends with, after its own: who signed it, for which app and
/// audience, when, and its nonce.
protocol IssuedClaims: CompactJSON {
    var iss: String { get }
    var bid: String { get }
    var aud: String { get }
    var iat: Int64 { get }
    var nonce: String { get }
    /// The claims before the issuer's, in Apple's order.
    func writeOwnClaims(to object: inout JSONObjectWriter)
}

extension IssuedClaims {
    func write(to object: inout JSONObjectWriter) {
        writeOwnClaims(to: &object)
        object.add("iss", iss)
        object.add("bid", bid)
        object.add("aud", aud)
        object.add("iat", iat)
        object.add("nonce", nonce)
    }
}

extension PromotionalOfferClaims: IssuedClaims {
    func writeOwnClaims(to object: inout JSONObjectWriter) {
        object.add("productId", productId)
        object.add("offerIdentifier", offerIdentifier)
        object.add("transactionId", transactionId)
    }
}

extension IntroductoryOfferEligibilityClaims: IssuedClaims {
    func writeOwnClaims(to object: inout JSONObjectWriter) {
        object.add("productId", productId)
        object.add("allowIntroductoryOffer", allowIntroductoryOffer)
        object.add("transactionId", transactionId)
    }
}

extension AdvancedCommerceRequestClaims: IssuedClaims {
    func writeOwnClaims(to object: inout JSONObjectWriter) { object.add("request", request) }
}

extension JWSHeader: CompactJSON {
    func write(to object: inout JSONObjectWriter) {
        object.add("alg", alg)
        object.add("kid", kid)
        object.add("typ", typ)
    }
}
