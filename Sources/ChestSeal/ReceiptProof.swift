import CSodium
import ChestCore
import FoundationEssentials

/// The proof of opening in an unlock receipt (docs/HUNTS.md "Proof of opening"): HMAC-SHA512-256
/// (`crypto_auth`) over the receipt's proven bytes, under a key derived from the page key with BLAKE2b
/// (`crypto_generichash`, keyed by the page key, over a fixed context). Only whoever recovered the page key can
/// make it; the organiser, who recorded the page keys at compose time, can check it.
package enum ReceiptProof {
    /// The BLAKE2b input that names the derived key's purpose, so the proof key is never the page key itself.
    static let context = Array("chest-receipt-proof-1".utf8)

    /// The proof key of a page (32 bytes), derived from its page key.
    package static func key(pageKey: [UInt8]) -> [UInt8] {
        precondition(pageKey.count == SealedPage.keyBytes, "a page key is 32 bytes")
        Sealer.initialize()
        var out = [UInt8](repeating: 0, count: Int(crypto_auth_KEYBYTES))
        _ = crypto_generichash(&out, out.count, context, UInt64(context.count), pageKey, pageKey.count)
        return out
    }

    /// The base64 proof of `receipt` (its `reader` already set) under a page's proof key.
    package static func prove(_ receipt: UnlockReceipt, proofKey: [UInt8]) -> String {
        Sealer.initialize()
        let bytes = [UInt8](receipt.provenBytes)
        var mac = [UInt8](repeating: 0, count: Int(crypto_auth_BYTES))
        _ = crypto_auth(&mac, bytes, UInt64(bytes.count), proofKey)
        return Data(mac).base64EncodedString()
    }

    /// The receipt as a reader sends it: its reader key set, its proof made with the page's proof key (base64) when
    /// the page had one, then signed with the reader's identity.
    package static func signed(_ receipt: UnlockReceipt, proofKey: String?, identity: Identity) -> UnlockReceipt {
        var proven = receipt
        proven.reader = identity.publicKeyBase64
        proven.signature = nil
        proven.proof = nil
        if let key = proofKey.flatMap({ Data(base64Encoded: $0) }), key.count == Int(crypto_auth_KEYBYTES) {
            proven.proof = prove(proven, proofKey: [UInt8](key))
        }
        return ReceiptSigner.sign(proven, with: identity)
    }

    /// Whether the receipt's proof was made with the key of this page.
    package static func isValid(_ receipt: UnlockReceipt, pageKey: [UInt8]) -> Bool {
        guard pageKey.count == SealedPage.keyBytes, let proof = receipt.proof.flatMap({ Data(base64Encoded: $0) }),
            proof.count == Int(crypto_auth_BYTES)
        else { return false }
        let bytes = [UInt8](receipt.provenBytes)
        return crypto_auth_verify([UInt8](proof), bytes, UInt64(bytes.count), key(pageKey: pageKey)) == 0
    }

    /// What the organiser's hunt file says of this receipt's proof (see `HuntBoard.ProofCheck`).
    package static func check(_ receipt: UnlockReceipt, hunt: HuntFile) -> HuntBoard.ProofCheck {
        guard let pages = hunt.messages?[receipt.message] else { return .unknownMessage }
        guard pages.pages.indices.contains(receipt.page - 1) else { return .noSuchPage(pages.pages.count) }
        guard receipt.proof != nil else { return .missing }
        let page = pages.pages[receipt.page - 1]
        guard let key = Data(base64Encoded: page.key), isValid(receipt, pageKey: [UInt8](key)) else { return .bad }
        return page.guarded ? .guarded : .proven
    }
}
