/// A message in the chest with everything the engine knows about it.
package struct StoredMessage: Hashable, Sendable {
    package var message: Message
    package var state: MessageState
    package var chest: ChestKind
    /// Sealed by this machine's own identity: its locks are never evaluated (a sender cannot open their own).
    package var sentByYou: Bool
    /// 0 when the message is filed in the chest under its own ID; else the number of the ID it is filed under
    /// instead (`MessageID.filed`), because another sender's message had its ID when it came. Two bytes where the
    /// ID itself would take 16 in every message (docs/BENCHMARKS.md "Memory").
    package var filing: UInt16

    package init(message: Message, state: MessageState, chest: ChestKind, sentByYou: Bool, filing: UInt16 = 0) {
        self.message = message
        self.state = state
        self.chest = chest
        self.sentByYou = sentByYou
        self.filing = filing
    }

    /// The chest ID: what the chest files it under (its files' names) and what `list` shows and commands take. The
    /// message's own ID (`message.id`) unless another sender's message had that ID when it came (docs/SECURITY.md
    /// "Round five (issue 61)"); the strings its keys are sealed with are always made of `message.id`.
    package var id: MessageID {
        filing == 0 ? message.id : message.id.filed(filing, key: message.seal?.publicKey ?? [])
    }

    /// The filing number of the chest ID `name` for this message: 0 for its own ID, or for a name that is none of
    /// its filed IDs (a file renamed by hand keeps being read under its own ID).
    package static func filing(of message: Message, named name: MessageID) -> UInt16 {
        guard name != message.id else { return 0 }
        let key = message.seal?.publicKey ?? []
        return (1...UInt16.max).first { message.id.filed($0, key: key) == name } ?? 0
    }

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
