import Foundation
import Testing

@testable import JSONRPC

/// Params are decoded straight from the parsed request; the values and the errors (field and reason)
/// must be what `JSONDecoder` gives for the same bytes.
@Suite struct JSONValueDecoderTests {
    enum Preference: String, Decodable, Equatable {
        case decline = "DECLINE"
        case grantFull = "GRANT_FULL"
    }

    struct Inner: Decodable, Equatable {
        let count: Int
        let ratio: Double?
    }

    struct Params: Decodable, Equatable {
        let bundleId: String
        let limit: Int?
        let percentage: Int32?
        let consented: Bool
        let token: UUID?
        let since: Date?
        let tags: [String]?
        let inner: Inner?
        let preference: Preference?
    }

    static func jsonDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom(RPCDates.decode)
        return decoder
    }

    /// Both decoders' outcome for `json`: the value, or the JSON-RPC error they map to.
    static func both<T: Decodable & Equatable>(_ type: T.Type, _ json: String) throws -> (ours: Result<T, RPCError>, foundation: Result<T, RPCError>) {
        func run(_ body: () throws -> T) -> Result<T, RPCError> {
            do { return .success(try body()) } catch let error as DecodingError { return .failure(RPCError(decoding: error)) } catch {
                return .failure(.internal)
            }
        }
        let value = try JSONParser.parse(Array(json.utf8))
        return (run { try JSONValueDecoder.decode(T.self, from: value) }, run { try jsonDecoder().decode(T.self, from: Data(json.utf8)) })
    }

    @Test func decodesWhatJSONDecoderDecodes() throws {
        let json = """
            {"bundleId":"com.example.app","limit":1e2,"percentage":75000,"consented":true,"token":"7389A31A-FB6D-4569-A2A6-DB7D85D84813",
             "since":"2026-11-22T10:00:00.250Z","tags":["a","b"],"inner":{"count":3,"ratio":0.75},"preference":"GRANT_FULL"}
            """
        let (ours, foundation) = try Self.both(Params.self, json)
        let decoded = try ours.get()
        #expect(decoded == (try foundation.get()))
        #expect(decoded.limit == 100 && decoded.inner == Inner(count: 3, ratio: 0.75) && decoded.preference == .grantFull)
        #expect(decoded.since == Date(timeIntervalSince1970: 1_795_341_600.25))

        let minimal = try Self.both(Params.self, #"{"bundleId":"b","consented":false,"limit":null}"#)
        #expect(try minimal.ours.get() == (try minimal.foundation.get()))
        #expect(try minimal.ours.get().limit == nil)
    }

    @Test(arguments: [
        (#"{"consented":true}"#, "bundleId"),  // missing
        (#"{"bundleId":null,"consented":true}"#, "bundleId"),  // null for a required member
        (#"{"bundleId":7,"consented":true}"#, "bundleId"),  // wrong type
        (#"{"bundleId":"b","consented":"yes"}"#, "consented"),
        (#"{"bundleId":"b","consented":true,"limit":"10"}"#, "limit"),
        (#"{"bundleId":"b","consented":true,"limit":1.5}"#, "limit"),  // not an integer
        (#"{"bundleId":"b","consented":true,"percentage":3000000000}"#, "percentage"),  // does not fit in Int32
        (#"{"bundleId":"b","consented":true,"token":"not-a-uuid"}"#, "token"),
        (#"{"bundleId":"b","consented":true,"since":"yesterday"}"#, "since"),
        (#"{"bundleId":"b","consented":true,"tags":["a",1]}"#, "tags[1]"),  // array element
        (#"{"bundleId":"b","consented":true,"tags":"a"}"#, "tags"),
        (#"{"bundleId":"b","consented":true,"inner":{"ratio":1}}"#, "inner.count"),  // nested missing
        (#"{"bundleId":"b","consented":true,"inner":[]}"#, "inner"),
        (#"{"bundleId":"b","consented":true,"preference":"MAYBE"}"#, "preference"),
    ])
    func failsNamingTheField(json: String, field: String) throws {
        let (ours, foundation) = try Self.both(Params.self, json)
        guard case .failure(let error) = ours, case .failure(let expected) = foundation else {
            Issue.record("both must fail: \(ours) / \(foundation)")
            return
        }
        #expect(error.data?["field"] == .string(field), "\(json)")
        // Where JSONDecoder names the field too, the reason is its reason, except for a UUID, whose reason is
        // ours (Foundation's names a Swift type). For a number that does not fit JSONDecoder names no field,
        // "The given data was not valid JSON."; ours says which field and why.
        if field == "token" {
            #expect(error.data?["reason"] == "must be a UUID such as 3f1c0c0e-6a1b-4c2d-9e8f-0a1b2c3d4e5f", "\(json)")
        } else if expected.data?["field"] != .string("") {
            #expect(error.data?["field"] == expected.data?["field"], "\(json)")
            #expect(error.data?["reason"] == expected.data?["reason"], "\(json)")
        } else {
            guard case .string(let reason) = error.data?["reason"] else { throw RPCError.internal }
            #expect(reason.hasPrefix("must be an integer"), "\(json)")
        }
    }

    /// A `JSONValue` member is kept exactly as sent: member order and number literals.
    @Test func jsonValueMembersAreKeptAsSent() throws {
        struct Request: Decodable { let request: JSONValue }
        let json = #"{"request":{"version":"1","operation":"CREATE","price":1.50,"id":9007199254740993}}"#
        let value = try JSONParser.parse(Array(json.utf8))
        let decoded = try JSONValueDecoder.decode(Request.self, from: value)
        #expect(String(decoding: decoded.request.serialized, as: UTF8.self) == #"{"version":"1","operation":"CREATE","price":1.50,"id":9007199254740993}"#)
    }
}

/// The project's one JSON string escaper (JSON-RPC results and JWS claims) writes what `JSONEncoder` writes.
@Suite struct JSONStringEscapeTests {
    @Test func escapesAsJSONEncoderDoes() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let text = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self) + "\"\\/é😀"
        var written: [UInt8] = []
        JSONValue.writeString(text, to: &written)
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: try encoder.encode(text), as: UTF8.self))
        #expect(String(decoding: written, as: UTF8.self).contains(#"\b"#) && String(decoding: written, as: UTF8.self).contains(#"\f"#))
    }
}
