import CSodium
import ChestCore
import FoundationEssentials

/// Signs and checks unlock receipts with Ed25519 (docs/FORMAT.md "Unlock receipts").
package enum ReceiptSigner {
    /// The receipt with the reader's public key and signature. The corresponding C function is
    /// `crypto_sign_detached`.
    package static func sign(_ receipt: UnlockReceipt, with identity: Identity) -> UnlockReceipt {
        Sealer.initialize()
        var signed = receipt
        signed.reader = identity.publicKeyBase64
        let bytes = [UInt8](signed.signedBytes)
        var signature = [UInt8](repeating: 0, count: Int(crypto_sign_BYTES))
        _ = crypto_sign_detached(&signature, nil, bytes, UInt64(bytes.count), identity.secretKey)
        signed.signature = Data(signature).base64EncodedString()
        return signed
    }

    /// Checks the signature against the reader key the receipt names. The corresponding C function is
    /// `crypto_sign_verify_detached`.
    package static func verify(_ receipt: UnlockReceipt) throws(ReceiptError) {
        Sealer.initialize()
        guard let key = Data(base64Encoded: receipt.reader), key.count == Int(crypto_sign_PUBLICKEYBYTES) else {
            throw ReceiptError("the receipt's reader key is not a base64 Ed25519 public key")
        }
        guard let signature = receipt.signature.flatMap({ Data(base64Encoded: $0) }),
            signature.count == Int(crypto_sign_BYTES)
        else {
            throw ReceiptError("the receipt is not signed")
        }
        let bytes = [UInt8](receipt.signedBytes)
        guard crypto_sign_verify_detached([UInt8](signature), bytes, UInt64(bytes.count), [UInt8](key)) == 0 else {
            throw ReceiptError("signature does not match: the receipt was changed after it was signed")
        }
    }
}
