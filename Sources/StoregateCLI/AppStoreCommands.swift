import AppStoreServer
import ArgumentParser
import Foundation
import SwiftASN1
import X509

/// `storegate jws …`: tools for people debugging an App Store integration.
struct JWSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jws", abstract: "Inspect Apple-signed data.", subcommands: [Verify.self])

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify a signed payload (notification, transaction, renewal info, app transaction) and print it.",
            discussion: """
                Prints the payload's kind, the verdict (the precise failure when it fails) and the decoded JSON. \
                Exit status: 0 valid, 1 invalid, 2 bad usage. Without --bundle-id or --environment those checks are skipped.
                """)

        @Option(name: .customLong("root"), help: "A trusted root certificate (DER or PEM); repeat for several. Default: Apple Root CA - G3.")
        var roots: [String] = []
        @Option(help: "The app's bundle ID.") var bundleId: String?
        @Option(help: "The app's Apple ID (checked for Production notifications and app transactions).") var appAppleId: Int64?
        @Option(help: "Production or Sandbox (Xcode or LocalTesting with --allow-unsigned).") var environment: String?
        @Flag(help: "Accept Xcode and LocalTesting data, which the App Store does not sign (development only).") var allowUnsigned = false
        @Argument(help: "A file holding the JWS, or - for standard input (a {\"signedPayload\": …} body works too).") var file = "-"

        func validate() throws {
            if let environment, !["Production", "Sandbox", "Xcode", "LocalTesting"].contains(environment) {
                throw ValidationError("--environment must be Production, Sandbox, Xcode or LocalTesting")
            }
            // Checked here rather than in run(), so the usage shown is this command's.
            for path in (file == "-" ? [] : [file]) + roots where !FileManager.default.isReadableFile(atPath: path) {
                throw ValidationError("cannot read \(path)")
            }
        }

        func run() async throws {
            let input: Data
            if file == "-" {
                input = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard let data = FileManager.default.contents(atPath: file) else { throw ValidationError("cannot read \(file)") }
                input = data
            }
            var certificates: [Certificate] = []
            for path in roots {
                guard let data = FileManager.default.contents(atPath: path), let certificate = Self.certificate(data) else {
                    throw ValidationError("\(path) is not a DER or PEM certificate")
                }
                certificates.append(certificate)
            }
            let verifier = SignedDataVerifier(
                configuration: .init(bundleId: bundleId, appAppleId: appAppleId, environment: environment, allowUnsignedEnvironments: allowUnsigned),
                chains: ChainVerifier(roots: certificates.isEmpty ? [try ChainVerifier.appleRootCAG3()] : certificates))
            let jws = Self.extractJWS(input)
            let result = await verifier.verify(jws)
            switch result {
            case .valid(let payload):
                print("kind: \(payload.kind.rawValue)")
                print("verdict: valid")
                print(Self.pretty(payload.payload))
            case .invalid(let failure):
                if let kind = Self.unverifiedKind(jws) { print("kind: \(kind) (unverified)") }
                print("verdict: invalid (\(failure.code)): \(failure.description)")
                if let payload = jws.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first.flatMap(Base64URL.decode) {
                    print("payload (unverified):\n" + Self.pretty(payload))
                }
                throw ExitCode.failure
            }
        }

        /// The JWS itself, or the `signedPayload` of a notification body.
        static func extractJWS(_ data: Data) -> String {
            if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let signed = object["signedPayload"] as? String { return signed }
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }

        static func unverifiedKind(_ jws: String) -> String? {
            let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
                let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
            else { return nil }
            if object["notificationType"] != nil { return "notification" }
            if object["receiptType"] != nil { return "appTransaction" }
            return object["bundleId"] != nil || object["transactionId"] != nil ? "transaction" : "renewalInfo"
        }

        static func pretty(_ json: Data) -> String {
            guard let object = try? JSONSerialization.jsonObject(with: json),
                let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            else { return String(decoding: json, as: UTF8.self) }
            return String(decoding: data, as: UTF8.self)
        }

        static func certificate(_ data: Data) -> Certificate? {
            if let der = try? Certificate(derEncoded: Array(data)) { return der }
            return (try? Certificate(pemEncoded: String(decoding: data, as: UTF8.self)))
        }
    }
}

/// `storegate offer sign`: signatures for trying an offer on a device before any server runs.
struct OfferCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "offer", abstract: "Sign offers locally.", subcommands: [Sign.self])

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case legacy, jws, introductory
        case advancedCommerce = "advanced-commerce"
    }

    struct Sign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign an offer with a .p8 key and print what StoreKit needs, as JSON.",
            discussion: """
                legacy: Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:) gets keyIdentifier, nonce, \
                timestamp, signature. jws: .promotionalOffer(_:compactJWS:). introductory: .introductoryOfferEligibility(compactJWS:). \
                advanced-commerce: the signed request for the Advanced Commerce API.
                """)

        @Option(help: "The In-App Purchase key (.p8).") var p8: String
        @Option(help: "The key ID (10 characters).") var keyId: String
        @Option(help: "The issuer ID (a UUID).") var issuerId: String
        @Option(help: "The app's bundle ID.") var bundleId: String
        @Option(help: "The product identifier.") var productId: String?
        @Option(help: "The offer identifier (legacy, jws).") var offerId: String?
        @Option(help: "The customer's appAccountToken, a UUID (legacy).") var appAccountToken: String?
        @Option(help: "Any of the customer's transaction IDs; appTransactionId recommended (jws; required for introductory).") var transactionId: String?
        @Option(help: "true or false (introductory).") var allowIntroductoryOffer: Bool?
        @Option(help: "legacy, jws, introductory or advanced-commerce.") var format: Format
        @Option(help: "The request JSON file (advanced-commerce).") var request: String?

        func validate() throws {
            switch format {
            case .legacy:
                guard productId != nil, offerId != nil else { throw ValidationError("legacy needs --product-id and --offer-id") }
                if let appAccountToken, UUID(uuidString: appAccountToken) == nil { throw ValidationError("--app-account-token must be a UUID") }
            case .jws:
                guard productId != nil, offerId != nil else { throw ValidationError("jws needs --product-id and --offer-id") }
            case .introductory:
                guard productId != nil, transactionId != nil, allowIntroductoryOffer != nil else {
                    throw ValidationError("introductory needs --product-id, --transaction-id and --allow-introductory-offer")
                }
            case .advancedCommerce:
                guard request != nil else { throw ValidationError("advanced-commerce needs --request FILE") }
            }
            for path in [p8] + (request.map { [$0] } ?? []) where !FileManager.default.isReadableFile(atPath: path) {
                throw ValidationError("cannot read \(path)")
            }
        }

        func run() async throws {
            guard let pem = try? String(contentsOfFile: p8, encoding: .utf8) else { throw ValidationError("cannot read \(p8)") }
            let key: SigningKey
            do {
                key = try SigningKey(keyId: keyId, issuerId: issuerId, bundleId: bundleId, p8: pem)
            } catch {
                throw Runtime.fail("\(p8): \(error.description)")
            }
            let signer = OfferSigner(key: key)
            let output: [String: Any]
            switch format {
            case .legacy:
                let signed = try signer.promotionalOffer(
                    productId: productId ?? "", offerId: offerId ?? "", appAccountToken: appAccountToken.flatMap(UUID.init))
                output = ["keyIdentifier": signed.keyIdentifier, "nonce": signed.nonce, "timestamp": signed.timestamp, "signature": signed.signature]
            case .jws:
                output = [
                    "compactJWS": try signer.promotionalOfferJWS(productId: productId ?? "", offerIdentifier: offerId ?? "", transactionId: transactionId)
                ]
            case .introductory:
                output = [
                    "compactJWS": try signer.introductoryOfferEligibilityJWS(
                        productId: productId ?? "", allowIntroductoryOffer: allowIntroductoryOffer ?? false, transactionId: transactionId ?? "")
                ]
            case .advancedCommerce:
                guard let data = FileManager.default.contents(atPath: request ?? ""), (try? JSONSerialization.jsonObject(with: data)) is [String: Any] else {
                    throw ValidationError("--request must name a file holding a JSON object")
                }
                output = ["compactJWS": try signer.advancedCommerceRequestJWS(requestJSON: data)]
            }
            let data = try JSONSerialization.data(withJSONObject: output, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        }
    }
}
