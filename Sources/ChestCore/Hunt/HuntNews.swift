/// What the hunt's adapter (chestd's MQTT link, docs/HUNTS.md) tells the engine: what it read of the hunt from
/// disk, and what the broker did. The engine decides what follows (Engine+Hunt.swift).
package enum HuntNews: Sendable {
    /// The join file, read at start or again on a reload (nil: no hunt is joined), with what the chest kept of it:
    /// the ledger of receipts put in the outbox (nil when none was kept for this hunt), the releases heard, and
    /// how many entries wait in the outbox; and the organiser's word kept (`HuntWord`: the newest schedule, the
    /// words announced), nil when none was kept.
    case joined(
        HuntFile?, ledger: HuntReceiptLedger?, releases: [String: ReleaseKey], outbox: Int, word: HuntWord? = nil)
    /// The broker accepted the connection.
    case connected
    /// The broker refused the team (a bad password), in a sentence; the link keeps retrying.
    case refused(String)
    /// The connection was lost or could not be made; the broker fires this session's will.
    case lost(String)
    /// The outbox now holds this many entries (the broker acknowledged one, or one was put in).
    case outbox(Int)
    /// A payload on a subscribed topic that is not an envelope at all.
    case malformed(topic: String)
    /// An envelope heard on `topic`, with the adapter's check of its signature (ChestSeal's `HuntSigner`).
    case heard(HuntEnvelope, topic: String, signatureValid: Bool)
    /// The answer to `.postReceipt`: the receipt is durably in the outbox, or `failure` says why not (it is then
    /// owed, and sent at the next start).
    case receiptPosted(PageLink, failure: String?)
    /// A `hint` or `start` envelope heard on `topic`, with the signature's check and the key its sealed box held for
    /// this team (nil when it opened neither with the team's key nor with the reader's identity), docs/HUNTS.md
    /// "Hints", "A clock for each team".
    case sealedKey(HuntEnvelope, topic: String, signatureValid: Bool, key: [UInt8]?)
    /// The hint keys kept in the chest by an earlier run.
    case hintKeysKept([String: String])
}
