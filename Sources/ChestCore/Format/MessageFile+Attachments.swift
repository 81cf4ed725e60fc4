import FoundationEssentials

extension MessageFile {
    /// The whole file: 1 MiB, and the 8 MiB of attachments sealed and in base64 (docs/FORMAT.md "Attachments").
    package static let fileLimit = sizeLimit + SealedAttachments.sealedLimit / 3 * 4

    static let prettyEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static let canonicalEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

extension WireMessage {
    /// The file without its attachments is held to 1 MiB, and the attachments of all pages to their own limit.
    func checkSize(_ fileSize: Int) throws(MessageFormatError) {
        let attached = (pages ?? []).reduce(0) { $0 + ($1.attachments?.utf8.count ?? 0) }
        guard fileSize - attached <= MessageFile.sizeLimit else {
            throw .tooLarge(size: fileSize - attached, limit: MessageFile.sizeLimit)
        }
        guard attached <= SealedAttachments.sealedLimit / 3 * 4 else {
            throw .invalidField(
                "pages[].attachments",
                "\(attached) bytes of attachments, over the \(SealedAttachments.sealedLimit / 3 * 4)-byte limit (8 MiB of files)"
            )
        }
    }
}

extension WirePage {
    /// A page's sealed attachments, nil when it has none: base64 of a nonce, the padded files and a tag.
    func sealedAttachments(number: Int) throws(MessageFormatError) -> SealedAttachments? {
        guard let attachments else { return nil }
        let overhead = SealedPage.nonceBytes + SealedPage.tagBytes
        guard attachments.utf8.count <= SealedAttachments.sealedLimit / 3 * 4,
            let bytes = Data(base64Encoded: attachments),
            bytes.count >= overhead + SealedAttachments.minimumPadded
        else {
            throw .sealedPart(page: number, "the attachments are not base64 of a nonce, padded files and a tag")
        }
        return SealedAttachments(ciphertext: [UInt8](bytes))
    }
}
