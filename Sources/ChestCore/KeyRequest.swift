/// One page key to recover, asked by the engine (`.deriveKey`) and answered by the daemon's seal worker
/// (`.keyDerived`): everything the worker needs, so it reads nothing else.
public struct KeyRequest: Hashable, Sendable {
    public var id: MessageID
    public var page: Int
    public var set: LockSetName
    /// The secret string (`SealSecret.secret`); nil for a guarded slot.
    public var secret: String?
    public var slot: KeySlot
    public var ciphertext: [UInt8]
    /// The cell and PIN the secret was made of, so the answer can be recorded against them.
    public var cell: Cell?
    public var pin: String?

    public init(id: MessageID, page: Int, set: LockSetName, secret: String?, slot: KeySlot, ciphertext: [UInt8],
                cell: Cell?, pin: String?) {
        self.id = id
        self.page = page
        self.set = set
        self.secret = secret
        self.slot = slot
        self.ciphertext = ciphertext
        self.cell = cell
        self.pin = pin
    }

    public var contentData: String { SealSecret.contentData(id, page: page) }
    public var slotData: String { SealSecret.slotData(id, page: page, set: set) }
}

/// How a `KeyRequest` ended.
public enum KeyResult: Hashable, Sendable {
    /// The key opened the page: its content.
    case opened(SealedContent)
    /// The secret was not the organiser's (the wrapped key did not authenticate).
    case wrong
    /// The key unwrapped but the content did not open or is not content: the file is damaged.
    case damaged(String)
    /// The worker's queue was full: nothing was tried, ask again later.
    case busy
}
