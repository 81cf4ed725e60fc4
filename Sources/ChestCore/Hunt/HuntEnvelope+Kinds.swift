import FoundationEssentials

/// An envelope for each kind of body, with the sender each kind goes with: a team's receipts, statuses and hint
/// requests; the organiser's releases, hints, adjustments, schedule and words (docs/HUNTS.md "Messages on the broker").
extension HuntEnvelope {
    package init(
        hunt: HuntID, sender: String, id: UInt64, sent: Date, receipt: UnlockReceipt, readerClaim: String? = nil
    ) {
        self.init(hunt: hunt, sender: sender, id: id, sent: sent, body: .receipt(receipt, readerClaim: readerClaim))
    }

    package init(hunt: HuntID, sender: String, id: UInt64, sent: Date, status: TeamStatus) {
        self.init(hunt: hunt, sender: sender, id: id, sent: sent, body: .status(status))
    }

    /// A release is always the organiser's.
    package init(hunt: HuntID, id: UInt64, sent: Date, release: HuntRelease) {
        self.init(hunt: hunt, sender: Self.organiserSender, id: id, sent: sent, body: .release(release))
    }

    /// A team's request for a hint; `id` is the team's outbox sequence number, as a receipt's.
    package init(hunt: HuntID, sender: String, id: UInt64, sent: Date, hintRequest: HuntHintRequest) {
        self.init(hunt: hunt, sender: sender, id: id, sent: sent, body: .hintRequest(hintRequest))
    }

    /// The board's answer to a hint request is always the organiser's.
    package init(hunt: HuntID, id: UInt64, sent: Date, hint: HuntHint) {
        self.init(hunt: hunt, sender: Self.organiserSender, id: id, sent: sent, body: .hint(hint))
    }

    /// An adjustment is always the organiser's.
    package init(hunt: HuntID, id: UInt64, sent: Date, adjust: HuntAdjustment) {
        self.init(hunt: hunt, sender: Self.organiserSender, id: id, sent: sent, body: .adjust(adjust))
    }

    /// The hunt's start and end, always the organiser's; `id` is the organiser's clock in milliseconds.
    package init(hunt: HuntID, id: UInt64, sent: Date, schedule: HuntSchedule) {
        self.init(hunt: hunt, sender: Self.organiserSender, id: id, sent: sent, body: .schedule(schedule))
    }

    /// A word to every team, always the organiser's; `id` is the organiser's clock in milliseconds.
    package init(hunt: HuntID, id: UInt64, sent: Date, said: HuntSaid) {
        self.init(hunt: hunt, sender: Self.organiserSender, id: id, sent: sent, body: .said(said))
    }

    /// The start key sealed to one team, always the organiser's; `id` is the organiser's clock in milliseconds.
    package init(hunt: HuntID, id: UInt64, sent: Date, start: HuntTeamStart) {
        self.init(hunt: hunt, sender: Self.organiserSender, id: id, sent: sent, body: .start(start))
    }

    /// A team's question to the organiser; `id` is the team's outbox sequence number, as a hint request's.
    package init(hunt: HuntID, sender: String, id: UInt64, sent: Date, ask: HuntQuestion) {
        self.init(hunt: hunt, sender: sender, id: id, sent: sent, body: .ask(ask))
    }

    /// A word sealed to one team, always the organiser's; `id` is the organiser's clock in milliseconds.
    package init(hunt: HuntID, id: UInt64, sent: Date, told: HuntTeamWord) {
        self.init(hunt: hunt, sender: Self.organiserSender, id: id, sent: sent, body: .told(told))
    }

    /// A team's submission for a mission page; `id` is the team's outbox sequence number, as a question's.
    package init(hunt: HuntID, sender: String, id: UInt64, sent: Date, submit: HuntSubmission) {
        self.init(hunt: hunt, sender: sender, id: id, sent: sent, body: .submit(submit))
    }

    /// The organiser's verdict on a submission; `id` is the organiser's clock in milliseconds.
    package init(hunt: HuntID, id: UInt64, sent: Date, verdict: HuntVerdict) {
        self.init(hunt: hunt, sender: Self.organiserSender, id: id, sent: sent, body: .verdict(verdict))
    }
}
