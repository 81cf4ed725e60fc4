/// A message in the chest with everything the engine knows about it.
public struct StoredMessage: Hashable, Sendable {
    public var message: Message
    public var state: MessageState
    public var chest: ChestKind
    /// Sealed by this machine's own identity: its locks are never evaluated (a sender cannot open their own).
    public var sentByYou: Bool

    public init(message: Message, state: MessageState, chest: ChestKind, sentByYou: Bool) {
        self.message = message
        self.state = state
        self.chest = chest
        self.sentByYou = sentByYou
    }

    public var id: MessageID { message.id }

    /// Locked (no page open), partial or open (every page open).
    public var openness: Openness {
        let open = state.openPages.count
        return open == 0 ? .locked : open == message.pages.count ? .open : .partial
    }
}

/// One lock of one message.
public struct LockRef: Hashable, Sendable {
    public var id: MessageID
    public var key: LockKey

    public init(id: MessageID, key: LockKey) {
        self.id = id
        self.key = key
    }
}

/// The gpsd connection as the daemon last saw it.
public struct GPSLink: Hashable, Sendable {
    public var connected = false
    public var server: String
    public var reason: String?

    public init(server: String) { self.server = server }
}

extension StoredMessage {
    /// The message as a new start keeps it: a PIN attempt cut short by a crash stays counted as wrong, and is no
    /// longer in flight (docs/DESIGN.md "Lock rules").
    var restarted: StoredMessage {
        var restarted = self
        restarted.state.pin.pending = nil
        return restarted
    }
}
