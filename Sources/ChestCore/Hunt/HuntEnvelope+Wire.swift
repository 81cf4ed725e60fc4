import FoundationEssentials

extension HuntEnvelope {
    /// The envelope as JSON has it: a `kind` and one field per kind, absent fields left out (docs/HUNTS.md
    /// "Canonical form"). The signed bytes are this struct's encoding, so its fields and their types are the wire.
    struct Wire: Codable {
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
    init(_ wire: Wire) throws(HuntError) {
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
}
