/// Which message a file is: its sender's key and the ID that sender gave it (docs/SECURITY.md "Round five (issue
/// 61)"). An ID alone is whatever a file says, and anyone can seal a file with any ID: two messages are the same
/// message, a duplicate or a newer version of it, only when the same key sealed both.
package struct MessageIdentity: Hashable, Sendable {
    package var id: MessageID
    /// The sender's Ed25519 public key, 32 bytes; empty for a message without a seal (only while composing).
    package var key: [UInt8]

    package init(id: MessageID, key: [UInt8]) {
        self.id = id
        self.key = key
    }
}

extension Message {
    /// Its sender's key and its ID.
    package var identity: MessageIdentity { MessageIdentity(id: id, key: seal?.publicKey ?? []) }

    /// Whether the same key sealed both.
    package func hasSender(of other: Message) -> Bool { (seal?.publicKey ?? []) == (other.seal?.publicKey ?? []) }
}
