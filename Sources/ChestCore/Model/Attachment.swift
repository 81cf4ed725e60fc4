import FoundationEssentials

/// A file a page carries (docs/FORMAT.md "Attachments"): what the page's sealed content says of it. Its bytes travel
/// in the page's `attachments` ciphertext, in the order of the list.
package struct Attachment: Hashable, Sendable, Codable {
    /// The file's name as the organiser gave it; untrusted on the reader's side (`safeName` before it names a file).
    package var name: String
    /// The media type, from the file's first bytes: `image/png`, `image/jpeg`, `image/webp` or
    /// `application/octet-stream`.
    package var type: String
    /// In bytes.
    package var size: Int

    package init(name: String, type: String, size: Int) {
        self.name = name
        self.type = type
        self.size = size
    }

    /// Whether a desktop notification can show it as a picture.
    package var isImage: Bool { type.hasPrefix("image/") }

    /// The files of one message, all pages together, are at most this many bytes (8 MiB).
    package static let totalLimit = 8 << 20
    /// At most this many files a page.
    package static let maximumCount = 16
    /// A name is cut to this many UTF-8 bytes (what Linux file systems take).
    package static let maximumNameBytes = 255

    /// The media type of a file, by its magic bytes; anything but PNG, JPEG and WebP is `application/octet-stream`.
    package static func mediaType(of bytes: some Collection<UInt8>) -> String {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if head.count == 12, head.starts(with: Array("RIFF".utf8)), head[8...].elementsEqual("WEBP".utf8) {
            return "image/webp"
        }
        return "application/octet-stream"
    }

    /// The extension a picture is saved under when its name has none that fits (the notification's cache file).
    package var imageExtension: String? {
        switch type {
        case "image/png": "png"
        case "image/jpeg": "jpg"
        case "image/webp": "webp"
        default: nil
        }
    }

    /// A name that is safe to create in a directory: path separators become `_`, control and format characters
    /// go, leading dots and spaces go (so never `.`, `..` or a hidden file), cut to 255 bytes keeping the
    /// extension; "attachment" when nothing is left.
    package static func safeName(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate, .privateUse: continue
            default: scalars.append(scalar == "/" || scalar == "\\" ? "_" : scalar)
            }
        }
        var safe = String(scalars).trimmingSpaces()
        while safe.first == "." { safe = String(safe.dropFirst()).trimmingSpaces() }
        if safe.isEmpty { return "attachment" }
        guard safe.utf8.count > maximumNameBytes else { return safe }
        let dot = safe.lastIndex(of: ".").map { String(safe[$0...]) } ?? ""
        let suffix = dot.utf8.count <= 16 ? dot : ""
        var stem = String(safe.dropLast(suffix.count))
        while stem.utf8.count + suffix.utf8.count > maximumNameBytes { stem.removeLast() }
        return stem + suffix
    }

    /// `name` if `taken` does not hold it, else `stem-2.ext`, `stem-3.ext`…: `read --save` never writes over a file.
    package static func freeName(_ name: String, taken: (String) -> Bool) -> String {
        guard taken(name) else { return name }
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let suffix = dot.map { String(name[$0...]) } ?? ""
        var number = 2
        while taken("\(stem)-\(number)\(suffix)") { number += 1 }
        return "\(stem)-\(number)\(suffix)"
    }

    /// "12.3 KB", "2.1 MB", "512 bytes".
    package static func sizeText(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) bytes" }
        if bytes < 1_000_000 { return String(printf: "%.1f KB", Double(bytes) / 1000) }
        return String(printf: "%.1f MB", Double(bytes) / 1_000_000)
    }
}

/// A page's attachments as the file carries them: nonce ‖ XChaCha20-Poly1305 ciphertext ‖ tag of the files' bytes
/// one after the other, padded (docs/FORMAT.md "Attachments").
package struct SealedAttachments: Hashable, Sendable {
    /// nil when the reader left them in the file: chestd evaluates locks without holding the bytes.
    package var ciphertext: [UInt8]?
    /// The ciphertext's length in bytes.
    package var size: Int

    package init(ciphertext: [UInt8]) {
        self.ciphertext = ciphertext
        size = ciphertext.count
    }

    /// The files' bytes are padded to `paddedLength` (Padmé), at least 4 KiB, so the ciphertext's length tells
    /// their total to within about 6 %.
    package static func paddedLength(_ length: Int) -> Int {
        let length = max(length, minimumPadded)
        let exponent = Int.bitWidth - 1 - length.leadingZeroBitCount
        let bits = exponent - (Int.bitWidth - exponent.leadingZeroBitCount)
        let mask = (1 << bits) - 1
        return (length + mask) & ~mask
    }

    package static let minimumPadded = 4096
    /// The sealed attachments of one message add up to at most this (the 8 MiB of files, padded, with nonces and tags).
    package static let sealedLimit = 9 << 20
}

extension Message {
    /// The message with every page's attachments left in the file: what chestd keeps (it reads them from the file
    /// only to show a picture). Such a message cannot be written out again with its attachments.
    package func leavingAttachmentsInFile() -> Message {
        var message = self
        for index in message.pages.indices where message.pages[index].attachments?.ciphertext != nil {
            message.pages[index].attachments?.ciphertext = nil
        }
        return message
    }
}
