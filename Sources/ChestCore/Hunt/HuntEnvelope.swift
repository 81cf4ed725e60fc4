import Foundation

/// Every message chest puts on the broker (docs/HUNTS.md "Messages on the broker"): one of a receipt, a status,
/// a release, a hint request, a hint or an adjustment, wrapped with the hunt, the sender, the sender's sequence number and time, and signed by the
/// sender's Ed25519 key (a team's key, or the organiser's). The wire form is compact JSON, keys sorted.
public struct HuntEnvelope: Codable, Hashable, Sendable {
    public static let formatName = "chest-hunt-message"
    /// Larger than any receipt (three confirming fixes and the evidence are under 4 KiB).
    public static let sizeLimit = 64 << 10
    /// The sender name of the organiser's messages; no team can have it.
    public static let organiserSender = "organiser"

    public enum Kind: String, Codable, Sendable, CaseIterable {
        case receipt, status, release
        /// A team asks the board for a hint (docs/HUNTS.md "Hints").
        case hintRequest
        /// The board's answer to a hint request.
        case hint
        /// The organiser's bonus or deduction for a team (docs/HUNTS.md "Adjustments").
        case adjust
        /// The organiser's start and end of the hunt (docs/HUNTS.md "The hunt's start and end").
        case schedule
        /// The organiser's word to every team (docs/HUNTS.md "Word to all teams").
        case said
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
    /// Kind hintRequest.
    public var hintRequest: HuntHintRequest?
    /// Kind hint.
    public var hint: HuntHint?
    /// Kind adjust.
    public var adjust: HuntAdjustment?
    /// Kind schedule: the hunt's start and end, either absent.
    public var schedule: HuntSchedule?
    /// Kind said: the organiser's word.
    public var said: HuntSaid?
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

    /// A team's request for a hint; `id` is the team's outbox sequence number, as a receipt's.
    public init(hunt: String, sender: String, id: UInt64, sent: Date, hintRequest: HuntHintRequest) {
        self.init(hunt: hunt, sender: sender, kind: .hintRequest, id: id, sent: sent)
        self.hintRequest = hintRequest
    }

    /// The board's answer to a hint request is always the organiser's.
    public init(hunt: String, id: UInt64, sent: Date, hint: HuntHint) {
        self.init(hunt: hunt, sender: Self.organiserSender, kind: .hint, id: id, sent: sent)
        self.hint = hint
    }

    /// An adjustment is always the organiser's.
    public init(hunt: String, id: UInt64, sent: Date, adjust: HuntAdjustment) {
        self.init(hunt: hunt, sender: Self.organiserSender, kind: .adjust, id: id, sent: sent)
        self.adjust = adjust
    }

    /// The hunt's start and end, always the organiser's; `id` is the organiser's clock in milliseconds.
    public init(hunt: String, id: UInt64, sent: Date, schedule: HuntSchedule) {
        self.init(hunt: hunt, sender: Self.organiserSender, kind: .schedule, id: id, sent: sent)
        self.schedule = schedule
    }

    /// A word to every team, always the organiser's; `id` is the organiser's clock in milliseconds.
    public init(hunt: String, id: UInt64, sent: Date, said: HuntSaid) {
        self.init(hunt: hunt, sender: Self.organiserSender, kind: .said, id: id, sent: sent)
        self.said = said
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
            + (hintRequest != nil ? 1 : 0) + (hint != nil ? 1 : 0) + (adjust != nil ? 1 : 0)
            + (schedule != nil ? 1 : 0) + (said != nil ? 1 : 0)
        guard payloads == 1 else {
            throw HuntError("the message must carry exactly one of receipt, status, release, hintRequest, hint, adjust, schedule or said")
        }
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
            guard MessageID(hintRequest.message) != nil, hintRequest.page >= 1, hintRequest.hint >= 1 else {
                throw HuntError("the hint request's message, page or hint is malformed")
            }
        case .hint:
            guard let hint else { throw HuntError("a hint message without its hint") }
            guard sender == Self.organiserSender else { throw HuntError("a hint must come from the organiser") }
            guard HuntTeam.isValidName(hint.team), MessageID(hint.message) != nil, hint.page >= 1, hint.hint >= 1,
                  (0...HuntAdjustment.limit).contains(hint.cost), HuntFile.base64(hint.sealed, bytes: HuntHint.sealedBytes) else {
                throw HuntError("the hint's team, message, page, hint, cost or sealed key is malformed")
            }
        case .adjust:
            guard let adjust else { throw HuntError("an adjust message without its adjustment") }
            guard sender == Self.organiserSender else { throw HuntError("an adjustment must come from the organiser") }
            guard HuntTeam.isValidName(adjust.team), adjust.points != 0, abs(adjust.points) <= HuntAdjustment.limit,
                  HuntAdjustment.isValidReason(adjust.reason) else {
                throw HuntError("the adjustment's team, points or reason is malformed")
            }
        case .schedule:
            guard let schedule else { throw HuntError("a schedule message without its schedule") }
            guard sender == Self.organiserSender else { throw HuntError("a schedule must come from the organiser") }
            if let problem = schedule.problem { throw HuntError(problem) }
        case .said:
            guard let said else { throw HuntError("a said message without its text") }
            guard sender == Self.organiserSender else { throw HuntError("a word to the teams must come from the organiser") }
            if let problem = HuntSaid.problem(said.text) { throw HuntError(problem) }
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
