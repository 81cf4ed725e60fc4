import struct FoundationEssentials.Date

/// Which unlocks of this chest went into the hunt's outbox (`<chest>/hunt-receipts.json`), and since when the chest
/// plays in the hunt: a page is saved open before its receipt goes to the outbox, so a kill in between would lose
/// the receipt; at start, every unlock since joining that is not in the ledger is put in the outbox (the catch-up).
/// It also keeps the last session begun, so sessions rise across restarts.
package struct HuntReceiptLedger: Codable, Hashable, Sendable {
    /// The hunt's ID: another hunt starts a new ledger.
    package var hunt: HuntID
    /// When this chest joined the hunt: unlocks from before are not the hunt's.
    package var since: Date
    /// The page of every receipt put in the outbox (written "MESSAGEID#PAGE").
    package var sent: Set<PageLink>
    /// The last session this chest began in the hunt (`TeamStatus.id`): the next is above it even when chestd
    /// restarts within the second its last session began, so the board never takes a new status for a replay.
    package var session: UInt64?

    package init(hunt: HuntID, since: Date, sent: Set<PageLink> = [], session: UInt64? = nil) {
        self.hunt = hunt
        self.since = since
        self.sent = sent
        self.session = session
    }

    /// The file's name in the chest directory.
    package static let fileName = "hunt-receipts.json"

    /// Whether this open page of `stored` is the hunt's and its receipt was never put in the outbox.
    package func owes(_ stored: StoredMessage, _ open: OpenPage) -> Bool {
        !stored.sentByYou && open.set != nil && open.evidence != nil && open.at >= since
            && !sent.contains(PageLink(message: stored.message.id, page: open.page))
    }

    /// The open pages of `entries` whose receipts are owed, oldest first.
    package func owed(_ entries: some Sequence<StoredMessage>) -> [(StoredMessage, OpenPage)] {
        entries.flatMap { stored in stored.state.openPages.filter { owes(stored, $0) }.map { (stored, $0) } }
            .sorted { ($0.1.at, $0.0.id, $0.1.page) < ($1.1.at, $1.0.id, $1.1.page) }
    }
}
