import CSodium
import ChestCore
import FoundationEssentials

/// A reader's claim to play for a team (docs/HUNTS.md "Reader keys"): the reader's Ed25519 signature over
/// "chest-reader-claim-1", the hunt and the team, one line each. It travels in the team's status, itself signed
/// with the team key, so the board learns a reader key from both: the team vouches for the reader, and the
/// reader's own signature stops a team from claiming another team's reader key.
package enum ReaderClaim {
    static func bytes(hunt: HuntID, team: String) -> [UInt8] { Array("chest-reader-claim-1\n\(hunt)\n\(team)\n".utf8) }

    /// This reader's claim to play for `team` in `hunt`: its signature, base64.
    package static func claim(hunt: HuntID, team: String, identity: Identity) -> String {
        Sealer.initialize()
        let message = bytes(hunt: hunt, team: team)
        var signature = [UInt8](repeating: 0, count: Int(crypto_sign_BYTES))
        _ = crypto_sign_detached(&signature, nil, message, UInt64(message.count), identity.secretKey)
        return Data(signature).base64EncodedString()
    }

    /// The status with this reader's key and claim set.
    package static func claim(_ status: TeamStatus, hunt: HuntID, team: String, identity: Identity) -> TeamStatus {
        var claimed = status
        claimed.reader = identity.publicKeyBase64
        claimed.readerClaim = claim(hunt: hunt, team: team, identity: identity)
        return claimed
    }

    /// Whether `reader` (base64 Ed25519 public key) signed `claim`, its claim to play for `team` in `hunt`.
    package static func isValid(reader: String?, claim: String?, hunt: HuntID, team: String) -> Bool {
        Sealer.initialize()
        guard let key = reader.flatMap({ Data(base64Encoded: $0) }), key.count == Int(crypto_sign_PUBLICKEYBYTES),
            let signature = claim.flatMap({ Data(base64Encoded: $0) }),
            signature.count == Int(crypto_sign_BYTES)
        else { return false }
        let message = bytes(hunt: hunt, team: team)
        return crypto_sign_verify_detached([UInt8](signature), message, UInt64(message.count), [UInt8](key)) == 0
    }

    /// The reader key an envelope claims for its sender, with its claim checked: a status's, or a receipt's reader.
    package static func claimedReader(_ envelope: HuntEnvelope) -> String? {
        let (reader, claim): (String?, String?)
        switch envelope.body {
        case let .status(status): (reader, claim) = (status.reader, status.readerClaim)
        case let .receipt(receipt, readerClaim): (reader, claim) = (receipt.reader, readerClaim)
        case .release, .hintRequest, .hint, .adjust, .schedule, .said, .start, .ask, .told, .submit, .verdict:
            return nil
        }
        return isValid(reader: reader, claim: claim, hunt: envelope.hunt, team: envelope.sender) ? reader : nil
    }
}
