import ChestCore
import ChestIO
import Foundation

/// Which unlocks of this chest went into the hunt's outbox (`<chest>/hunt-receipts.json`), and since when the chest
/// plays in the hunt: chestd saves a page open before it hands its receipt to the outbox, so a kill in between
/// would lose the receipt; at start, every unlock since joining that is not in the ledger is put in the outbox.
struct HuntReceiptLedger: Codable {
    /// The hunt's ID: another hunt starts a new ledger.
    var hunt: String
    /// When this chest joined the hunt: unlocks from before are not the hunt's.
    var since: Date
    /// "MESSAGEID#PAGE" of every receipt put in the outbox.
    var sent: Set<String>

    static func path(inChest root: String) -> String { root + "/hunt-receipts.json" }

    /// The ledger of `hunt` in the chest at `root`; nil when the chest has none for that hunt.
    static func load(chestRoot root: String, hunt: String) -> HuntReceiptLedger? {
        guard let data = FileManager.default.contents(atPath: path(inChest: root)),
              let ledger = try? ChestJSON.decoder().decode(HuntReceiptLedger.self, from: data), ledger.hunt == hunt else {
            return nil
        }
        return ledger
    }

    func save(chestRoot root: String) throws {
        try AtomicFile.write(try ChestJSON.encoder().encode(self), to: Self.path(inChest: root))
    }

    static func key(_ id: MessageID, page: Int) -> String { "\(id.rawValue)#\(page)" }

    /// The open pages of `entries` whose receipts are owed: opened by a set since joining, not yet sent.
    func owed(_ entries: some Sequence<StoredMessage>) -> [(StoredMessage, OpenPage)] {
        entries.filter { !$0.sentByYou }.flatMap { stored in
            stored.state.openPages.filter { open in
                open.set != nil && open.evidence != nil && open.at >= since && !sent.contains(Self.key(stored.id, page: open.page))
            }.map { (stored, $0) }
        }.sorted { ($0.1.at, $0.0.id, $0.1.page) < ($1.1.at, $1.0.id, $1.1.page) }
    }
}
