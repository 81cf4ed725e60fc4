/// A mission's photo known by its bytes, not its name (docs/HUNTS.md "Missions"): PNG, JPEG or WebP, by the format's
/// signature, with the width and height its header says, within `maximumSide` and `maximumPixels`. An SVG or an HTML
/// page named `.png` is none of them, and a header claiming 100,000 × 100,000 pixels is refused before anything
/// decodes it.
package struct MissionPhoto: Hashable, Sendable {
    package var kind: HuntSubmission.Kind
    package var width: Int
    package var height: Int

    /// The longest side a photo may have: a phone's camera takes 8,000 or so.
    package static let maximumSide = 16_384
    /// The most pixels: 50 megapixels, more than a phone's camera takes.
    package static let maximumPixels = 50_000_000

    /// The photo `bytes` hold, or why they are not one the board takes.
    package static func check(_ bytes: [UInt8]) -> Result<MissionPhoto, HuntError> {
        guard bytes.count <= HuntSubmission.maximumPhotoBytes else {
            return .failure(
                HuntError(
                    "the photo is \(bytes.count / (1 << 20)) MiB; at most \(HuntSubmission.maximumPhotoBytes >> 20) MiB are sent: scale it down first"
                ))
        }
        guard let photo = png(bytes) ?? jpeg(bytes) ?? webp(bytes) else {
            return .failure(HuntError("it is not a PNG, JPEG or WebP photo (\(Self.looks(bytes)))"))
        }
        guard photo.width > 0, photo.height > 0 else {
            return .failure(HuntError("the \(photo.kind.rawValue) photo's header gives it no width or height"))
        }
        guard photo.width <= maximumSide, photo.height <= maximumSide, photo.width * photo.height <= maximumPixels
        else {
            return .failure(
                HuntError(
                    "the \(photo.kind.rawValue) photo claims \(photo.width) × \(photo.height) pixels; at most \(maximumSide) a side and \(maximumPixels / 1_000_000) megapixels are taken"
                ))
        }
        return .success(photo)
    }

    /// What bytes that are no photo look like, for the refusal.
    static func looks(_ bytes: [UInt8]) -> String {
        let head = String(decoding: bytes.prefix(512), as: UTF8.self).lowercased()
        if head.contains("<svg") { return "it is an SVG drawing" }
        if head.contains("<html") || head.contains("<!doctype") || head.contains("<script") {
            return "it is an HTML page"
        }
        if bytes.isEmpty { return "it is empty" }
        return "its first bytes are no photo's signature"
    }

    private static func bigEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int? {
        guard at >= 0, at + count <= bytes.count else { return nil }
        return bytes[at..<at + count].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int? {
        guard at >= 0, at + count <= bytes.count else { return nil }
        return bytes[at..<at + count].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    /// PNG: the signature, then the IHDR chunk first, its width and height big-endian.
    static func png(_ bytes: [UInt8]) -> MissionPhoto? {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8),
            let width = bigEndian(bytes, 16, 4), let height = bigEndian(bytes, 20, 4)
        else { return nil }
        return MissionPhoto(kind: .png, width: width, height: height)
    }

    /// JPEG: SOI, then segments up to the first start of frame (SOF0 to SOF15 but DHT, JPG and DAC), whose height and
    /// width it gives; at most 4,096 segments are walked.
    static func jpeg(_ bytes: [UInt8]) -> MissionPhoto? {
        guard bytes.starts(with: [0xFF, 0xD8, 0xFF]) else { return nil }
        var at = 2
        for _ in 0..<4096 {
            while at < bytes.count, bytes[at] == 0xFF, at + 1 < bytes.count, bytes[at + 1] == 0xFF { at += 1 }
            guard at + 4 <= bytes.count, bytes[at] == 0xFF else { return nil }
            let marker = bytes[at + 1]
            if (0xD0...0xD9).contains(marker) || marker == 0x01 {
                at += 2
                continue
            }
            guard let length = bigEndian(bytes, at + 2, 2), length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard let height = bigEndian(bytes, at + 5, 2), let width = bigEndian(bytes, at + 7, 2) else {
                    return nil
                }
                return MissionPhoto(kind: .jpeg, width: width, height: height)
            }
            at += 2 + length
        }
        return nil
    }

    /// WebP: RIFF…WEBP, then a VP8 (lossy), VP8L (lossless) or VP8X (extended) chunk with the size.
    static func webp(_ bytes: [UInt8]) -> MissionPhoto? {
        guard bytes.count >= 30, Array(bytes[0..<4]) == Array("RIFF".utf8), Array(bytes[8..<12]) == Array("WEBP".utf8)
        else { return nil }
        switch String(decoding: bytes[12..<16], as: UTF8.self) {
        case "VP8 ":
            guard Array(bytes[23..<26]) == [0x9D, 0x01, 0x2A], let width = littleEndian(bytes, 26, 2),
                let height = littleEndian(bytes, 28, 2)
            else { return nil }
            return MissionPhoto(kind: .webp, width: width & 0x3FFF, height: height & 0x3FFF)
        case "VP8L":
            guard bytes[20] == 0x2F, let bits = littleEndian(bytes, 21, 4) else { return nil }
            return MissionPhoto(kind: .webp, width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            guard let width = littleEndian(bytes, 24, 3), let height = littleEndian(bytes, 27, 3) else { return nil }
            return MissionPhoto(kind: .webp, width: width + 1, height: height + 1)
        default:
            return nil
        }
    }
}
