/// One page key to recover, asked by the engine (`.deriveKey`) and answered by the daemon's seal worker
/// (`.keyDerived`): everything the worker needs, so it reads nothing else.
package struct KeyRequest: Hashable, Sendable {
    /// The message's chest ID (`StoredMessage.id`): where the answer goes.
    package var id: MessageID
    /// The ID sealed in the file, which the strings the keys are sealed with are made of: the chest ID unless the
    /// message is filed under another (`StoredMessage.filing`).
    package var sealedID: MessageID
    package var page: Int
    package var set: LockSetName
    /// The secret string (`SealSecret.secret`); nil for a guarded slot.
    package var secret: String?
    package var slot: KeySlot
    package var ciphertext: [UInt8]
    /// The cell and PIN the secret was made of, so the answer can be recorded against them.
    package var cell: Cell?
    package var pin: String?
    /// The normalised answer the secret was made of (`AnswerText`), for an answer attempt.
    package var answer: String?
    /// The page's format, 2 to 6: it names the strings.
    package var version: Int
    /// Format 6: the hunt's start key (32 bytes), which turns the slot's inner key into the page key
    /// (docs/FORMAT.md "Format 6"); nil for older formats.
    package var start: [UInt8]?

    package init(
        id: MessageID, page: Int, set: LockSetName, secret: String?, slot: KeySlot, ciphertext: [UInt8],
        cell: Cell?, pin: String?, version: Int = 2
    ) {
        self.id = id
        sealedID = id
        self.page = page
        self.set = set
        self.secret = secret
        self.slot = slot
        self.ciphertext = ciphertext
        self.cell = cell
        self.pin = pin
        self.version = version
    }

    /// The request for one set of a sealed page, its secret made of what is given (a guard's secret is nil); nil for
    /// a format 6 page without the hunt's `start` key, which no secret of the set can open alone.
    package init?(
        id: MessageID, page: Int, set: LockSetName, of sealed: SealedPage, cell: Cell? = nil, pin: String? = nil,
        release: (name: String, key: String)? = nil, answer: String? = nil, start: [UInt8]? = nil
    ) {
        guard let slot = sealed.slots[set], !sealed.needsStart || start != nil else { return nil }
        var secret: String?
        if case .guarded = slot {
        } else {
            secret = SealSecret.secret(cell: cell, pin: pin, release: release, answer: answer, version: sealed.version)
        }
        self.init(
            id: id, page: page, set: set, secret: secret, slot: slot, ciphertext: sealed.ciphertext, cell: cell,
            pin: pin, version: sealed.version)
        self.answer = answer
        self.start = sealed.needsStart ? start : nil
    }

    package var contentData: String { SealSecret.contentData(sealedID, page: page, version: version) }
    package var slotData: String { SealSecret.slotData(sealedID, page: page, set: set, version: version) }

    /// What one Argon2id run depends on: requests that share it share the derived key (a grid's cell tried for
    /// several places at once), so the seal worker derives it once.
    package var derivation: Derivation? {
        switch slot {
        case .guarded: nil
        case let .sealed(salt, cost, _), let .cells(salt, cost, _), let .answers(salt, cost, _):
            secret.map { Derivation(secret: $0, salt: salt, cost: cost) }
        }
    }

    /// The inputs of one Argon2id run.
    package struct Derivation: Hashable, Sendable {
        package var secret: String
        package var salt: [UInt8]
        package var cost: SealCost
    }
}

/// How a `KeyRequest` ended.
package enum KeyResult: Hashable, Sendable {
    /// The key opened the page: its content.
    case opened(SealedContent)
    /// The secret was not the organiser's (the wrapped key did not authenticate).
    case wrong
    /// The key unwrapped but the content did not open or is not content: the file is damaged.
    case damaged(String)
}
