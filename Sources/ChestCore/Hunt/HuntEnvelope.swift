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

    /// The envelope as JSON has it: a `kind` and one field per kind, absent fields left out (docs/HUNTS.md
    /// "Canonical form"). The signed bytes are this struct's encoding, so its fields and their types are the wire.
    private struct Wire: Codable {
        var format: String
        var hunt: String
        var sender: String
        var kind: Kind
        var id: UInt64
        var sent: Date
        var receipt: UnlockReceipt?
        var readerClaim: String?
        var status: TeamStatus?
        var release: HuntRelease?
        var hintRequest: HuntHintRequest?
        var hint: HuntHint?
        var adjust: HuntAdjustment?
        var schedule: HuntSchedule?
        var said: HuntSaid?
        var start: HuntTeamStart?
        var ask: HuntQuestion?
        var told: HuntTeamWord?
        var submit: HuntSubmission?
        var verdict: HuntVerdict?
        var key: String
        var signature: String?

        init(_ envelope: HuntEnvelope) {
            format = envelope.format
            hunt = envelope.hunt.rawValue
            sender = envelope.sender
            kind = envelope.kind
            id = envelope.id
            sent = envelope.sent
            key = envelope.key
            signature = envelope.signature
            switch envelope.body {
            case let .receipt(receipt, readerClaim):
                self.receipt = receipt
                self.readerClaim = readerClaim
            case let .status(status): self.status = status
            case let .release(release): self.release = release
            case let .hintRequest(request): hintRequest = request
            case let .hint(hint): self.hint = hint
            case let .adjust(adjust): self.adjust = adjust
            case let .schedule(schedule): self.schedule = schedule
            case let .said(said): self.said = said
            case let .start(start): self.start = start
            case let .ask(ask): self.ask = ask
            case let .told(told): self.told = told
            case let .submit(submit): self.submit = submit
            case let .verdict(verdict): self.verdict = verdict
            }
        }
    }

    /// The envelope a wire form says, refused when its kind and its fields disagree.
    private init(_ wire: Wire) throws(HuntError) {
        guard let hunt = HuntID(wire.hunt) else { throw HuntError("the message's hunt is not a hunt ID") }
        let bodies: [Body?] = [
            wire.receipt.map { .receipt($0, readerClaim: wire.readerClaim) }, wire.status.map(Body.status),
            wire.release.map(Body.release), wire.hintRequest.map(Body.hintRequest), wire.hint.map(Body.hint),
            wire.adjust.map(Body.adjust), wire.schedule.map(Body.schedule), wire.said.map(Body.said),
            wire.start.map(Body.start), wire.ask.map(Body.ask), wire.told.map(Body.told),
            wire.submit.map(Body.submit), wire.verdict.map(Body.verdict),
        ]
        let present = bodies.compactMap { $0 }
        guard present.count == 1, let body = present.first else {
            throw HuntError(
                "the message must carry exactly one of receipt, status, release, hintRequest, hint, adjust, schedule, said, start, ask, told, submit or verdict"
            )
        }
        guard body.kind == wire.kind else { throw HuntError(wire.kind.missing) }
        guard wire.readerClaim == nil || wire.kind == .receipt else {
            throw HuntError("only a receipt message carries a readerClaim beside its body")
        }
        format = wire.format
        self.hunt = hunt
        sender = wire.sender
        id = wire.id
        sent = wire.sent
        self.body = body
        key = wire.key
        signature = wire.signature
    }

    func validate() throws(HuntError) {
        guard format == Self.formatName else { throw HuntError("not a chest hunt message") }
        guard sender == Self.organiserSender || HuntTeam.isValidName(sender) else {
            throw HuntError("the message's sender is not a team name")
        }
        guard id >= 1 else { throw HuntError("the message's id must be 1 or more") }
        guard HuntFile.base64(key, bytes: 32) else {
            throw HuntError("the message's key is not a base64 Ed25519 public key")
        }
        guard let signature, HuntFile.base64(signature, bytes: 64) else { throw HuntError("the message is not signed") }
        if let refusal = body.isOrganisers == (sender == Self.organiserSender) ? nil : kind.wrongSender {
            throw HuntError(refusal)
        }
        switch body {
        case let .receipt(receipt, _):
            guard receipt.format == UnlockReceipt.formatName, UnlockReceipt.versions.contains(receipt.version) else {
                throw HuntError("the message's receipt is not a chest receipt of version \(UnlockReceipt.version)")
            }
        case let .status(status):
            guard status.pagesOpen >= 0 else { throw HuntError("a status with a negative page count") }
        case let .release(release):
            guard HuntRelease.isValidName(release.name) else {
                throw HuntError("the release's name or key is malformed")
            }
        case let .hintRequest(hintRequest):
            guard hintRequest.page >= 1, hintRequest.hint >= 1 else { throw HuntError(HuntHintRequest.malformed) }
        case let .hint(hint):
            guard HuntTeam.isValidName(hint.team), MessageID(hint.message) != nil, hint.page >= 1, hint.hint >= 1,
                (0...HuntAdjustment.limit).contains(hint.cost),
                HuntFile.base64(hint.sealed, bytes: HuntHint.sealedBytes)
            else {
                throw HuntError("the hint's team, message, page, hint, cost or sealed key is malformed")
            }
        case let .adjust(adjust):
            guard HuntTeam.isValidName(adjust.team), adjust.points != 0, abs(adjust.points) <= HuntAdjustment.limit,
                HuntAdjustment.isValidReason(adjust.reason)
            else {
                throw HuntError("the adjustment's team, points or reason is malformed")
            }
        case let .schedule(schedule):
            if let problem = schedule.problem { throw HuntError(problem) }
        case let .said(said):
            if let problem = HuntSaid.problem(said.text) { throw HuntError(problem) }
        case let .start(start):
            guard start.isValid else { throw HuntError("the start's team or sealed key is malformed") }
        case let .ask(question):
            if let problem = HuntQuestion.problem(question.text) { throw HuntError(problem) }
        case let .told(word):
            guard word.isValid else { throw HuntError("the told word's team or sealed text is malformed") }
        case let .submit(submission):
            guard submission.isValid else { throw HuntError("the submission's page or sealed content is malformed") }
        case let .verdict(verdict):
            guard verdict.isValid else {
                throw HuntError("the verdict's team, page, points, digest or reason is malformed")
            }
        }
    }

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
