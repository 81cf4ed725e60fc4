import Foundation

/// Every message chest puts on the broker (docs/HUNTS.md "Messages on the broker"): one of a receipt, a status
/// or a release, wrapped with the hunt, the sender, the sender's sequence number and time, and signed by the
/// sender's Ed25519 key (a team's key, or the organiser's). The wire form is compact JSON, keys sorted.
public struct HuntEnvelope: Codable, Hashable, Sendable {
    public static let formatName = "chest-hunt-message"
    /// Larger than any receipt (three confirming fixes and the evidence are under 4 KiB).
    public static let sizeLimit = 64 << 10
    /// The sender name of the organiser's messages; no team can have it.
    public static let organiserSender = "organiser"

    public enum Kind: String, Codable, Sendable, CaseIterable {
        case receipt, status, release
        /// A team asks the organiser's board for a hint; the board answers with a `hint` (docs/HUNTS.md "Hints").
        case hintRequest, hint
    }

    public var format: String
    /// The hunt's ID.
    public var hunt: String
    /// A team's name, or "organiser".
    public var sender: String
    public var kind: Kind
    /// The sender's sequence number: from 1, increasing, never reused (the outbox's IDs).
    public var id: UInt64
    public var sent: Date
    /// Kind receipt: signed by the reader's identity as `chest receipt` does.
    public var receipt: UnlockReceipt?
    /// Kind receipt: the reader's claim to play for the sender (`ReaderClaim`, docs/HUNTS.md "Reader keys"), as its
    /// statuses carry it, so a receipt sent before any status still names a reader the team vouches for.
    public var readerClaim: String?
    public var status: TeamStatus?
    public var release: HuntRelease?
    /// Kind hintRequest (a team's) and kind hint (the organiser's), docs/HUNTS.md "Hints".
    public var hintRequest: HuntHintRequest?
    public var hint: HuntHint?
    /// The signer's Ed25519 public key, base64.
    public var key: String
    /// Ed25519 over `signedBytes`, base64; nil until signed.
    public var signature: String?

    /// An unsigned envelope; `HuntSigner.sign` sets `key` and `signature`.
    public init(hunt: String, sender: String, id: UInt64, sent: Date, receipt: UnlockReceipt, readerClaim: String? = nil) {
        self.init(hunt: hunt, sender: sender, kind: .receipt, id: id, sent: sent)
        self.receipt = receipt
        self.readerClaim = readerClaim
    }

    public init(hunt: String, sender: String, id: UInt64, sent: Date, status: TeamStatus) {
        self.init(hunt: hunt, sender: sender, kind: .status, id: id, sent: sent)
        self.status = status
    }

    /// A release is always the organiser's.
    public init(hunt: String, id: UInt64, sent: Date, release: HuntRelease) {
        self.init(hunt: hunt, sender: Self.organiserSender, kind: .release, id: id, sent: sent)
        self.release = release
    }

    /// A team's request for a hint.
    public init(hunt: String, sender: String, id: UInt64, sent: Date, hintRequest: HuntHintRequest) {
        self.init(hunt: hunt, sender: sender, kind: .hintRequest, id: id, sent: sent)
        self.hintRequest = hintRequest
    }

    /// A hint given to a team is always the organiser's.
    public init(hunt: String, id: UInt64, sent: Date, hint: HuntHint) {
        self.init(hunt: hunt, sender: Self.organiserSender, kind: .hint, id: id, sent: sent)
        self.hint = hint
    }

    private init(hunt: String, sender: String, kind: Kind, id: UInt64, sent: Date) {
        format = Self.formatName
        self.hunt = hunt
        self.sender = sender
        self.kind = kind
        self.id = id
        self.sent = sent
        key = ""
    }

    /// The bytes the signature covers: the envelope without its signature, compact JSON, keys sorted.
    public var signedBytes: Data {
        var unsigned = self
        unsigned.signature = nil
        return try! ChestJSON.encoder().encode(unsigned)
    }

    /// The payload on the wire: compact JSON, keys sorted, with the signature.
    public var bytes: Data { try! ChestJSON.encoder().encode(self) }

    /// Reads a payload from the broker and checks its shape (not its signature: `HuntSigner.isValid`).
    public static func decode(_ data: Data) throws(HuntError) -> HuntEnvelope {
        let envelope = try HuntError.decoding(HuntEnvelope.self, from: data, limit: sizeLimit, what: "not a chest hunt message")
        try envelope.validate()
        return envelope
    }

    func validate() throws(HuntError) {
        guard format == Self.formatName else { throw HuntError("not a chest hunt message") }
        guard HuntFile.isHuntID(hunt) else { throw HuntError("the message's hunt is not a hunt ID") }
        guard sender == Self.organiserSender || HuntTeam.isValidName(sender) else {
            throw HuntError("the message's sender is not a team name")
        }
        guard id >= 1 else { throw HuntError("the message's id must be 1 or more") }
        guard HuntFile.base64(key, bytes: 32) else { throw HuntError("the message's key is not a base64 Ed25519 public key") }
        guard let signature, HuntFile.base64(signature, bytes: 64) else { throw HuntError("the message is not signed") }
        let payloads = (receipt != nil ? 1 : 0) + (status != nil ? 1 : 0) + (release != nil ? 1 : 0)
            + (hintRequest != nil ? 1 : 0) + (hint != nil ? 1 : 0)
        guard payloads == 1 else { throw HuntError("the message must carry exactly one of receipt, status, release, hintRequest or hint") }
        switch kind {
        case .receipt:
            guard let receipt else { throw HuntError("a receipt message without its receipt") }
            guard sender != Self.organiserSender else { throw HuntError("the organiser sends no receipts") }
            guard receipt.format == UnlockReceipt.formatName, UnlockReceipt.versions.contains(receipt.version) else {
                throw HuntError("the message's receipt is not a chest receipt of version \(UnlockReceipt.version)")
            }
        case .status:
            guard let status else { throw HuntError("a status message without its status") }
            guard sender != Self.organiserSender else { throw HuntError("the organiser sends no team status") }
            guard status.pagesOpen >= 0 else { throw HuntError("a status with a negative page count") }
        case .release:
            guard let release else { throw HuntError("a release message without its release") }
            guard sender == Self.organiserSender else { throw HuntError("a release must come from the organiser") }
            guard HuntRelease.isValidName(release.name), HuntRelease.isValidKey(release.key) else {
                throw HuntError("the release's name or key is malformed")
            }
        case .hintRequest:
            guard let hintRequest else { throw HuntError("a hint request without its request") }
            guard sender != Self.organiserSender else { throw HuntError("the organiser asks for no hints") }
            guard hintRequest.isValid else { throw HuntError("the hint request's message, page or hint is malformed") }
        case .hint:
            guard let hint else { throw HuntError("a hint message without its hint") }
            guard sender == Self.organiserSender else { throw HuntError("a hint must come from the organiser") }
            guard hint.isValid else { throw HuntError("the hint's team, message, page, hint, cost or sealed key is malformed") }
        }
    }

    /// The receipt as a hunt may publish it, before the reader signs it: without a signature, and without the
    /// confirming fixes' positions and altitudes unless the hunt shares positions (docs/HUNTS.md "Messages on
    /// the broker"). The receipt's signature covers the fixes, so this must happen before signing.
    public static func shareable(_ receipt: UnlockReceipt, sharePositions: Bool) -> UnlockReceipt {
        var shared = receipt
        shared.signature = nil
        if !sharePositions {
            for index in shared.evidence.fixes.indices {
                shared.evidence.fixes[index].latitude = nil
                shared.evidence.fixes[index].longitude = nil
                shared.evidence.fixes[index].altitudeMSL = nil
            }
        }
        return shared
    }
}
