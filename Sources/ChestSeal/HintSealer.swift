import CSodium
import ChestCore
import FoundationEssentials

/// The cryptography of a page's hints (docs/FORMAT.md "Hints"): each hint's text, padded, under a random key of its
/// own (XChaCha20-Poly1305, as a page's content), so a key given for one hint opens nothing else.
package enum HintSealer {
    /// A hint's text sealed under a new random key; the key goes in the file (`inFile`), in the organiser's hunt file,
    /// or both, as compose decides.
    package static func seal(
        _ text: String, id: MessageID, page: Int, hint: Int, after: Int?, cost: Int?, keyInFile: Bool,
        version: Int = MessageFile.baseVersion
    ) -> (hint: PageHint, key: [UInt8]) {
        Sealer.initialize()
        let key = Sealer.randomBytes(SealedPage.keyBytes)
        let ciphertext = encrypt(
            text, key: key, nonce: Sealer.randomBytes(SealedPage.nonceBytes), id: id, page: page,
            hint: hint, version: version)
        return (PageHint(ciphertext: ciphertext, key: keyInFile ? key : nil, after: after, cost: cost), key)
    }

    /// nonce ‖ ciphertext ‖ tag of a hint's padded content (a given nonce, for docs/FORMAT.md's test vector).
    package static func encrypt(
        _ text: String, key: [UInt8], nonce: [UInt8], id: MessageID, page: Int, hint: Int,
        version: Int
    ) -> [UInt8] {
        Sealer.initialize()
        precondition(key.count == SealedPage.keyBytes && nonce.count == SealedPage.nonceBytes)
        let message = HintContent(text: text).plaintext()
        let ad = Array(SealSecret.hintData(id, page: page, hint: hint, version: version).utf8)
        var out = [UInt8](repeating: 0, count: message.count + SealedPage.tagBytes)
        var length: UInt64 = 0
        _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
            &out, &length, message, UInt64(message.count), ad, UInt64(ad.count),
            nil, nonce, key)
        return nonce + out.prefix(Int(length))
    }

    /// The text of a hint (page and hint from 1) under `key`; nil when the key does not open it or what it opens is
    /// not a hint.
    package static func open(_ ciphertext: [UInt8], key: [UInt8], id: MessageID, page: Int, hint: Int, version: Int)
        -> String?
    {
        guard key.count == SealedPage.keyBytes,
            let plaintext = PageSealer.decrypt(
                ciphertext, key: key,
                data: SealSecret.hintData(id, page: page, hint: hint, version: version))
        else {
            return nil
        }
        return HintContent.decode(plaintext)?.text
    }
}
