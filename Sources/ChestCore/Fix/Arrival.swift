import struct FoundationEssentials.Data

/// A message file the daemon has read and checked (decoded, seal verified), for the engine to take in or refuse.
package struct Arrival: Hashable, Sendable {
    /// What the file holds: a sealed message, or why it cannot be one.
    package enum Content: Hashable, Sendable {
        /// `sentByYou` when this machine's identity sealed it.
        case message(Message, sentByYou: Bool)
        case refused(String)
    }

    package var source: MessageSource
    /// The file's name, as a `rejected` event shows it.
    package var file: String
    package var content: Content

    package init(source: MessageSource, file: String, content: Content) {
        self.source = source
        self.file = file
        self.content = content
    }
}

/// Where a message's bytes come from when it is stored.
package enum MessageSource: Hashable, Sendable {
    /// A file from the inbox, staged in `incoming/`: moved into the chest, or set aside when refused.
    case staged(path: String)
    /// `chest import` for this client: the user's file stays where it is; these bytes are written into the chest.
    case copy(Data, for: ClientID)

    /// The client waiting for the outcome, if any.
    var client: ClientID? {
        if case let .copy(_, client) = self { client } else { nil }
    }
}

/// A message the engine has accepted, to be stored by the daemon.
package struct Admission: Hashable, Sendable {
    package var stored: StoredMessage
    package var source: MessageSource

    package init(stored: StoredMessage, source: MessageSource) {
        self.stored = stored
        self.source = source
    }
}

/// A change to the chest on disk that the engine decided and the daemon carries out, answering with `.changed`.
package enum ChestChange: Hashable, Sendable {
    /// New messages into the regular chest.
    case store([Admission])
    /// `chest save`: regular to saved.
    case move(MessageID, from: ChestKind, to: ChestKind, for: ClientID)
    /// `chest delete`: the message and its state, out of the chest, kept aside a while for `undelete`.
    case remove(MessageID, from: ChestKind, for: ClientID)
    /// `chest undelete`: a deleted message back into the regular chest, with the state it had.
    case restore(StoredMessage, for: ClientID)
    /// A newer version of a stored message from its sender, in the chest the older one is in, with the state it
    /// carries over (`Replacement`): the state is written before the file. `note` is what the importer is told.
    case replace(Admission, note: String)
    /// A message that claims the joined hunt's ID without its organiser's seal, out of the chest into `rejected/`
    /// with the reason beside it, and its state gone (docs/SECURITY.md "Round five (issue 61)").
    case setAside(MessageID, from: ChestKind, reason: String)
}
