import Foundation

/// What the Retention Messaging API accepts, as Apple documents it: checked by Storegate before Apple is
/// called (a clear error naming the field, no round trip) and by the App Store simulator as Apple would.
/// Lengths count Unicode scalars, as Apple's Python library's validators count characters.
public enum RetentionMessagingRules {
    /// A rule broken: Apple's error code for it, the field (in `UploadMessageRequestBody`'s own names) and why.
    public struct Violation: Error, Equatable, Sendable, CustomStringConvertible {
        public let code: APIErrorCode
        public let field: String
        public let reason: String

        public var description: String { "\(field): \(reason)" }
    }

    public static let maxHeaderLength = 66
    public static let maxBodyLength = 144
    public static let maxAltTextLength = 150
    public static let maxBulletPoints = 5
    public static let maxBulletPointTextLength = 66
    public static let maxRealtimeURLLength = 256
    /// Images and messages an app may hold.
    public static let maxImages = 2000
    public static let maxMessages = 2000
    /// A full-size image is 3840 pixels wide and 160 to 2160 high.
    public static let fullSizeWidth = 3840
    public static let fullSizeHeights = 160...2160

    /// The first rule `message` breaks, if any.
    public static func check(_ message: UploadMessageRequestBody) -> Violation? {
        if message.header.unicodeScalars.count > maxHeaderLength {
            return Violation(code: .headerTooLong, field: "header", reason: "is longer than \(maxHeaderLength) characters")
        }
        if message.body.unicodeScalars.count > maxBodyLength {
            return Violation(code: .bodyTooLong, field: "body", reason: "is longer than \(maxBodyLength) characters")
        }
        if let image = message.image, image.altText.unicodeScalars.count > maxAltTextLength {
            return Violation(code: .altTextTooLong, field: "image.altText", reason: "is longer than \(maxAltTextLength) characters")
        }
        if message.headerPosition == .aboveImage, message.image == nil {
            return Violation(code: .badRequestAboveImageRequiresAnImage, field: "headerPosition", reason: "ABOVE_IMAGE needs an image")
        }
        let bullets = message.bulletPoints ?? []
        if bullets.count > maxBulletPoints {
            return Violation(code: .badRequestTooManyBulletPoints, field: "bulletPoints", reason: "has more than \(maxBulletPoints) items")
        }
        for (index, bullet) in bullets.enumerated() {
            if bullet.text.unicodeScalars.count > maxBulletPointTextLength {
                return Violation(
                    code: .badRequestBulletPointTextTooLong, field: "bulletPoints[\(index)].text",
                    reason: "is longer than \(maxBulletPointTextLength) characters")
            }
            if bullet.altText.unicodeScalars.count > maxAltTextLength {
                return Violation(code: .altTextTooLong, field: "bulletPoints[\(index)].altText", reason: "is longer than \(maxAltTextLength) characters")
            }
        }
        return nil
    }

    /// The first rule an image upload breaks: a PNG without transparency, a size Apple knows, and a
    /// full-size image's dimensions.
    public static func check(image: Data, size: ImageSize) -> Violation? {
        guard size.isKnown else { return Violation(code: .badRequestImageSize, field: "imageSize", reason: "is not FULL_SIZE or BULLET_POINT") }
        guard let png = PNGHeader(image) else { return Violation(code: .invalidImage, field: "image", reason: "is not a PNG") }
        if png.hasTransparency { return Violation(code: .invalidImage, field: "image", reason: "has transparency") }
        if size == .fullSize, png.width != fullSizeWidth || !fullSizeHeights.contains(png.height) {
            return Violation(
                code: .invalidImage, field: "image",
                reason:
                    "is \(png.width)×\(png.height) pixels; a full-size image is \(fullSizeWidth) wide and \(fullSizeHeights.lowerBound) to \(fullSizeHeights.upperBound) high"
            )
        }
        return nil
    }

    /// The realtime URL: HTTPS (plain HTTP only to this machine, for the simulator), at most 256 characters.
    public static func check(realtimeURL: String) -> Violation? {
        if realtimeURL.unicodeScalars.count > maxRealtimeURLLength {
            return Violation(code: .badRequestRealtimeUrl, field: "realtimeURL", reason: "is longer than \(maxRealtimeURLLength) characters")
        }
        guard let url = URL(string: realtimeURL), let host = url.host, !host.isEmpty,
            url.scheme == "https" || (url.scheme == "http" && ["127.0.0.1", "localhost", "::1"].contains(host))
        else {
            return Violation(code: .badRequestRealtimeUrl, field: "realtimeURL", reason: "is not an https URL")
        }
        return nil
    }

    /// A locale as Apple's paths name it: a language, then optional subtags (`en-US`, `zh-Hant-TW`).
    public static func check(locale: String) -> Violation? {
        let parts = locale.split(separator: "-", omittingEmptySubsequences: false)
        let language = parts.first ?? ""
        let valid =
            (2...3).contains(language.count) && language.allSatisfy { $0.isASCII && $0.isLowercase }
            && parts.dropFirst().allSatisfy { (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        return valid ? nil : Violation(code: .invalidLocale, field: "locale", reason: "is not a locale such as en-US")
    }
}

/// The facts of a PNG that Apple's rules look at, read from its signature and first chunks.
public struct PNGHeader: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// An alpha channel (colour types 4 and 6) or a `tRNS` chunk.
    public let hasTransparency: Bool

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Nil unless `data` starts with the PNG signature and an IHDR chunk.
    public init?(_ data: Data) {
        let bytes = [UInt8](data.prefix(1 << 16))
        guard bytes.count >= 33, Array(bytes[0..<8]) == Self.signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        func uint32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        width = uint32(16)
        height = uint32(20)
        guard width > 0, height > 0 else { return nil }
        let colourType = bytes[25]
        var transparency = colourType == 4 || colourType == 6
        // Chunks before the image data: a tRNS chunk (transparency for the other colour types) comes there.
        var offset = 8
        while !transparency, offset + 8 <= bytes.count {
            let length = uint32(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            if type == "IDAT" || type == "IEND" { break }
            if type == "tRNS" { transparency = true }
            offset += 12 + length
        }
        hasTransparency = transparency
    }
}
