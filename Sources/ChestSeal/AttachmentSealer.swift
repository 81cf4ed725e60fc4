import ChestCore
import ChestIO
import FoundationEssentials

/// A file to attach to a page, as `compose` read it.
package struct AttachedFile: Hashable, Sendable {
    package var name: String
    package var bytes: [UInt8]

    package init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    /// What the page's content says of it.
    package var attachment: Attachment {
        Attachment(name: name, type: Attachment.mediaType(of: bytes), size: bytes.count)
    }
}

/// The cryptography of a page's attachments (docs/FORMAT.md "Attachments"): the files' bytes one after the other,
/// padded, under a random key that only the page's sealed content holds.
package enum AttachmentSealer {
    /// Seals the files; the content takes `attachments` and `key`, the page `sealed`.
    static func seal(_ files: [AttachedFile], id: MessageID, page: Int, version: Int)
        -> (attachments: [Attachment], key: String, sealed: SealedAttachments)
    {
        let key = Sealer.randomBytes(SealedPage.keyBytes)
        var plaintext = files.flatMap(\.bytes)
        plaintext += [UInt8](repeating: 0, count: SealedAttachments.paddedLength(plaintext.count) - plaintext.count)
        let sealed = PageSealer.encrypt(
            plaintext, key: key, data: SealSecret.attachmentsData(id, page: page, version: version))
        return (files.map(\.attachment), Data(key).base64EncodedString(), SealedAttachments(ciphertext: sealed))
    }

    /// The files of an open page, each with its bytes, in order; why not when the ciphertext is missing or does
    /// not open with the content's key.
    package static func open(_ page: Page, number: Int, content: SealedContent, id: MessageID) throws(ChestError)
        -> [(attachment: Attachment, bytes: [UInt8])]
    {
        guard let attachments = content.attachments, !attachments.isEmpty else { return [] }
        guard let sealed = page.attachments?.ciphertext else {
            throw ChestError("page \(number)'s attachments are not in the message file; import the original file again")
        }
        guard let key = content.attachmentsKey.flatMap({ Data(base64Encoded: $0) }),
            let plaintext = PageSealer.decrypt(
                sealed, key: [UInt8](key),
                data: SealSecret.attachmentsData(id, page: number, version: page.sealed?.version ?? 2))
        else {
            throw ChestError("page \(number)'s attachments do not open with the page's key: the file is damaged")
        }
        var files: [(Attachment, [UInt8])] = []
        var offset = 0
        for attachment in attachments {
            guard attachment.size >= 0, offset + attachment.size <= plaintext.count else {
                throw ChestError("page \(number)'s attachments are shorter than their list says: the file is damaged")
            }
            files.append((attachment, Array(plaintext[offset..<offset + attachment.size])))
            offset += attachment.size
        }
        return files
    }
}
