/// What the engine asks of the hunt's adapter (docs/HUNTS.md): the adapter owns the MQTT client, the durable
/// outbox and the signing keys, and decides nothing.
package enum HuntAction: Hashable, Sendable {
    /// Connect to this hunt's broker (after stopping any earlier link), leaving `will` as the session's last will,
    /// subscribed to the organiser's releases, schedule and words (`HuntTopic.releases`, `.schedule`, `.saying`,
    /// and `.toldTo` for the words to this team alone).
    case connect(HuntFile, will: HuntStatusPost)
    /// Say the team is offline (the current will) and close the link: the join file went or changed.
    case disconnect
    /// The last will of the next connection: a new session.
    case setWill(HuntStatusPost)
    /// Put the team's status in the outbox, claimed by the reader's key and signed, and send what can be sent.
    case postStatus(HuntStatusPost)
    /// Put an unlock's receipt, proven with `proofKey` and signed, and its OwnTracks transition in the outbox, and
    /// answer with `HuntNews.receiptPosted`; `caughtUp` when it is owed from before this start (a kill between
    /// the unlock and the outbox).
    case postReceipt(UnlockReceipt, proofKey: String?, link: PageLink, caughtUp: Bool = false)
    /// Write the ledger of receipts in the outbox to the chest.
    case keepLedger(HuntReceiptLedger)
    /// Write the releases heard to the chest, so a restart without a broker still knows them.
    case keepReleases([String: ReleaseKey])
    /// Put a signed request for a hint in the outbox and send it when the broker is there (docs/HUNTS.md "Hints").
    case requestHint(HuntHintRequest)
    /// Put the team's signed question in the outbox and send it when the broker is there (docs/HUNTS.md "A team's
    /// question, a word to one team").
    case ask(HuntQuestion)
    /// Seal to the organiser, sign and put in the outbox the team's photo (the file at the path, read and checked again
    /// by the adapter) or text for a mission page (docs/HUNTS.md "Missions").
    case submit(message: MessageID, page: Int, content: MissionContent)
    /// Write the hint keys the board gave to the chest (`HintRef.key` → base64), as releases are kept.
    case keepHintKeys([String: String])
    /// Write the organiser's word believed (the newest schedule, the words announced) to the chest
    /// (`HuntWord.fileName`), so a restart without a broker keeps the schedule and announces no word twice.
    case keepWord(HuntWord)
}

/// A team status with the envelope id that orders it (`TeamStatus.id`).
package struct HuntStatusPost: Hashable, Sendable {
    package var status: TeamStatus
    package var id: UInt64

    package init(_ status: TeamStatus, id: UInt64) {
        self.status = status
        self.id = id
    }
}
