/// A message in the chest with everything the engine knows about it.
package struct StoredMessage: Hashable, Sendable {
    package var message: Message
    package var state: MessageState
    package var chest: ChestKind
    /// Sealed by this machine's own identity: its locks are never evaluated (a sender cannot open their own).
    package var sentByYou: Bool

    package init(message: Message, state: MessageState, chest: ChestKind, sentByYou: Bool) {
        self.message = message
        self.state = state
        self.chest = chest
        self.sentByYou = sentByYou
    }

    package var id: MessageID { message.id }

    /// Locked (no page open), partial or open (every page open).
    package var openness: Openness {
        let open = state.openPages.count
        return open == 0 ? .locked : open == message.pages.count ? .open : .partial
    }
}

/// One lock of one message.
package struct LockRef: Hashable, Sendable {
    package var id: MessageID
    package var key: LockKey

    package init(id: MessageID, key: LockKey) {
        self.id = id
        self.key = key
    }
}

/// The gpsd connection as the daemon last saw it.
package struct GPSLink: Hashable, Sendable {
    package var connected = false
    package var server: String
    package var reason: String?

    package init(server: String) { self.server = server }
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
