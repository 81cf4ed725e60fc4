import FoundationEssentials

/// Every message chest puts on the broker (docs/HUNTS.md "Messages on the broker"): a `Body` (a receipt, a status, a
/// release, a hint request, a hint, an adjustment, a schedule or a word), wrapped with the hunt, the sender, the
/// sender's sequence number and time, and signed by the sender's Ed25519 key (a team's key, or the organiser's). The
/// wire form is compact JSON, keys sorted: a `kind` and the field of that name (docs/ARCHITECTURE.md "The hunt's wire").
package struct HuntEnvelope: Codable, Hashable, Sendable {
    package static let formatName = "chest-hunt-message"
    /// Larger than any receipt (three confirming fixes and the evidence are under 4 KiB).
    package static let sizeLimit = 64 << 10
    /// A mission's submission may be larger: an 8 MiB photo sealed and in base64 is 11 MiB (docs/HUNTS.md "Missions").
    package static let submissionSizeLimit = 12 << 20
    /// The sender name of the organiser's messages; no team can have it.
    package static let organiserSender = "organiser"

    package enum Kind: String, Codable, Sendable, CaseIterable {
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
        /// The start key sealed to one team at its own start (docs/HUNTS.md "A clock for each team").
        case start
        /// A team's question to the organiser (docs/HUNTS.md "A team's question, a word to one team").
        case ask
        /// The organiser's word to one team, sealed to it.
        case told
        /// A team's photo or text for a mission page, sealed to the organiser (docs/HUNTS.md "Missions").
        case submit
        /// The organiser's judgement of a submission.
        case verdict

        /// Why a message of this kind is refused when its own field is not the one it carries.
        var missing: String {
            switch self {
            case .receipt: "a receipt message without its receipt"
            case .status: "a status message without its status"
            case .release: "a release message without its release"
            case .hintRequest: "a hint request without its request"
            case .hint: "a hint message without its hint"
            case .adjust: "an adjust message without its adjustment"
            case .schedule: "a schedule message without its schedule"
            case .said: "a said message without its text"
            case .start: "a start message without its sealed key"
            case .ask: "an ask message without its question"
            case .told: "a told message without its sealed word"
            case .submit: "a submit message without its submission"
            case .verdict: "a verdict message without its verdict"
            }
        }

        /// Why a message of this kind is refused from the wrong sender (a team's kind from the organiser, or the
        /// other way round).
        var wrongSender: String {
            switch self {
            case .receipt: "the organiser sends no receipts"
            case .status: "the organiser sends no team status"
            case .hintRequest: "the organiser asks for no hints"
            case .release: "a release must come from the organiser"
            case .hint: "a hint must come from the organiser"
            case .adjust: "an adjustment must come from the organiser"
            case .schedule: "a schedule must come from the organiser"
            case .said: "a word to the teams must come from the organiser"
            case .start: "a team's start must come from the organiser"
            case .ask: "the organiser asks no questions"
            case .told: "a word to a team must come from the organiser"
            case .submit: "the organiser submits nothing"
            case .verdict: "a verdict must come from the organiser"
            }
        }
    }

    /// What the envelope carries: one body of its kind.
    package enum Body: Hashable, Sendable {
        /// Signed by the reader's identity as `chest receipt` does, with the reader's claim to play for the sender
        /// (`ReaderClaim`, docs/HUNTS.md "Reader keys"), as its statuses carry it, so a receipt sent before any status
        /// still names a reader the team vouches for.
        case receipt(UnlockReceipt, readerClaim: String? = nil)
        case status(TeamStatus)
        case release(HuntRelease)
        /// A team asks the board for a hint.
        case hintRequest(HuntHintRequest)
        /// The board's answer to a hint request.
        case hint(HuntHint)
        case adjust(HuntAdjustment)
        /// The hunt's start and end, either absent.
        case schedule(HuntSchedule)
        case said(HuntSaid)
        /// The start key sealed to one team.
        case start(HuntTeamStart)
        /// A team's question.
        case ask(HuntQuestion)
        /// The organiser's word sealed to one team.
        case told(HuntTeamWord)
        /// A team's submission for a mission page.
        case submit(HuntSubmission)
        /// The organiser's verdict on a submission.
        case verdict(HuntVerdict)

        package var kind: Kind {
            switch self {
            case .receipt: .receipt
            case .status: .status
            case .release: .release
            case .hintRequest: .hintRequest
            case .hint: .hint
            case .adjust: .adjust
            case .schedule: .schedule
            case .said: .said
            case .start: .start
            case .ask: .ask
            case .told: .told
            case .submit: .submit
            case .verdict: .verdict
            }
        }

        /// Whether only the organiser sends this kind; the others only a team does.
        var isOrganisers: Bool {
            switch self {
            case .release, .hint, .adjust, .schedule, .said, .start, .told, .verdict: true
            case .receipt, .status, .hintRequest, .ask, .submit: false
            }
        }
    }

    package var format: String
    package var hunt: HuntID
    /// A team's name, or "organiser".
    package var sender: String
    /// The sender's sequence number: from 1, increasing, never reused (the outbox's IDs).
    package var id: UInt64
    package var sent: Date
    package var body: Body
    /// The signer's Ed25519 public key, base64.
    package var key: String
    /// Ed25519 over `signedBytes`, base64; nil until signed.
    package var signature: String?

    /// The body's kind, as the wire's `kind` says it.
    package var kind: Kind { body.kind }

    /// An unsigned envelope; `HuntSigner.sign` sets `key` and `signature`. The organiser's kinds (release, hint,
    /// adjust, schedule, said) go with `organiserSender`, as the inits below for each kind write them.
    package init(hunt: HuntID, sender: String, id: UInt64, sent: Date, body: Body) {
        format = Self.formatName
        self.hunt = hunt
        self.sender = sender
        self.id = id
        self.sent = sent
        self.body = body
        key = ""
    }

    /// The bytes the signature covers: the envelope without its signature, compact JSON, keys sorted.
    package var signedBytes: Data {
        var unsigned = self
        unsigned.signature = nil
        return try! ChestJSON.encoder().encode(unsigned)
    }

    /// The payload on the wire: compact JSON, keys sorted, with the signature.
    package var bytes: Data { try! ChestJSON.encoder().encode(self) }

    /// Reads a payload from the broker and checks its shape (not its signature: `HuntSigner.isValid`).
    package static func decode(_ data: Data) throws(HuntError) -> HuntEnvelope {
        let wire: Wire
        if data.count > sizeLimit {
            // Only a mission's submission may be larger; anything else is refused as too large, whatever it holds.
            guard data.count <= submissionSizeLimit,
                let large = try? HuntError.decoding(
                    Wire.self, from: data, limit: submissionSizeLimit, what: "not a chest hunt message"),
                large.kind == .submit
            else { throw HuntError("not a chest hunt message: larger than \(sizeLimit) bytes") }
            wire = large
        } else {
            wire = try HuntError.decoding(Wire.self, from: data, limit: sizeLimit, what: "not a chest hunt message")
        }
        let envelope = try HuntEnvelope(wire)
        try envelope.validate()
        return envelope
    }

    /// Refuses, as a decoding error, what `decode` refuses in the same sentence before `validate`.
    package init(from decoder: any Decoder) throws {
        do {
            self = try HuntEnvelope(Wire(from: decoder))
        } catch let error as HuntError {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    package func encode(to encoder: any Encoder) throws { try Wire(self).encode(to: encoder) }

    /// The receipt as a hunt may publish it, before the reader signs it: without a signature, and without the
    /// confirming fixes' positions and altitudes unless the hunt shares positions (docs/HUNTS.md "Messages on
    /// the broker"). The receipt's signature covers the fixes, so this must happen before signing.
    package static func shareable(_ receipt: UnlockReceipt, sharePositions: Bool) -> UnlockReceipt {
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
