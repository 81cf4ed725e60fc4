import struct FoundationEssentials.Data

/// Messages that claim a joined hunt's IDs (docs/HUNTS.md "Messages of the hunt", docs/SECURITY.md "Round five
/// (issue 61)"). A message is identified by its sender's key and its ID; another sender's message with an ID the
/// chest holds is filed under a chest ID of its own, so a squatted ID never keeps a message out. In a joined hunt,
/// a message that has one of the hunt's IDs and is not sealed by its organiser is a copy re-signed by someone else:
/// refused when it comes, set aside when it was there first.
extension Engine {
    /// The joined hunt's organiser key, 32 bytes; nil when no hunt is joined.
    var organiserKey: [UInt8]? {
        huntBook.file.flatMap { Data(base64Encoded: $0.organiser) }.map { [UInt8]($0) }
    }

    /// The joined hunt's organiser's message with this ID, under whichever chest ID it is filed.
    func huntMessage(_ id: MessageID) -> StoredMessage? {
        organiserKey.flatMap { entries.message(MessageIdentity(id: id, key: $0)) }
    }

    /// The IDs this chest knows as the joined hunt's: its organiser's messages in the chest, those the organiser's
    /// board named in the hints it gave this team, and those of the receipts the team sent. Empty when no hunt is
    /// joined.
    var huntIDs: Set<MessageID> {
        guard let organiser = organiserKey else { return [] }
        var ids = Set(entries.values.lazy.filter { $0.message.seal?.isMade(by: organiser) == true }.map(\.message.id))
        ids.formUnion(huntBook.hintKeys.keys.compactMap { HintRef(key: $0)?.id })
        ids.formUnion(huntBook.ledger?.sent.map(\.message) ?? [])
        return ids
    }

    /// Whether `id` is one of the joined hunt's (`huntIDs`), without listing them all.
    func isHuntID(_ id: MessageID) -> Bool {
        guard huntBook.isJoined else { return false }
        return huntMessage(id) != nil || huntBook.hintKeys.keys.contains { HintRef(key: $0)?.id == id }
            || huntBook.ledger?.sent.contains { $0.message == id } == true
    }

    /// Why a message is refused as claiming the joined hunt: it has one of the hunt's IDs and another key than the
    /// organiser's sealed it. Nil when no hunt is joined or the message is not such a claim.
    func huntClaimRefusal(of message: Message) -> String? {
        guard let file = huntBook.file, let organiser = organiserKey, let seal = message.seal,
            !seal.isMade(by: organiser), isHuntID(message.id)
        else { return nil }
        return Self.claimReason(message, hunt: file.name)
    }

    /// The title and name are the copy's sender's choice: shown escaped (docs/SECURITY.md "Known senders").
    static func claimReason(_ message: Message, hunt: String) -> String {
        "message \(message.id.short) (\"\(TerminalText.escaped(message.title))\" from \(TerminalText.escaped(message.from))) "
            + "has the ID of a message of the hunt \"\(TerminalText.escaped(hunt))\" but is not sealed by the hunt's "
            + "organiser: a copy re-signed by another key"
    }

    /// Sets aside the messages in the chest that claim the joined hunt's IDs without its organiser's seal: those
    /// with one of `ids` that is the hunt's, or with any of the hunt's IDs when `ids` is nil (at join and at load).
    mutating func setAsideHuntClaims(of ids: Set<MessageID>? = nil) -> [Effect] {
        guard let file = huntBook.file, huntBook.chestLoaded, let organiser = organiserKey else { return [] }
        let claimed: [StoredMessage]
        if let ids {
            claimed = ids.filter(isHuntID).sorted().flatMap { entries.all(withID: $0) }
        } else {
            let hunt = huntIDs
            claimed = entries.values.filter { hunt.contains($0.message.id) }.sorted { $0.id < $1.id }
        }
        var effects: [Effect] = []
        for stored in claimed
        where stored.message.seal?.isMade(by: organiser) == false && settingAside.insert(stored.id).inserted {
            effects.append(
                .change(
                    .setAside(
                        stored.id, from: stored.chest,
                        reason: Self.claimReason(stored.message, hunt: file.name) + "; set aside")))
        }
        return effects
    }

    /// What `chest import` adds about a message stored under another chest ID than its own, and about the messages
    /// its coming set aside (`claims`); nil when neither.
    func identityNote(_ stored: StoredMessage, settingAside claims: [Effect]) -> String? {
        let aside = claims.compactMap { effect -> MessageID? in
            guard case let .change(.setAside(id, _, _)) = effect, id != stored.id,
                entries[id]?.message.id == stored.message.id
            else { return nil }
            return id
        }
        var parts: [String] = []
        if stored.filing != 0 {
            parts.append(
                "another sender's message in the chest has the ID \(stored.message.id.short): this one is filed as \(stored.id.short)"
            )
        }
        if !aside.isEmpty {
            parts.append(
                "the hunt organiser's message: set aside \(aside.map(\.short).joined(separator: ", ")), a copy of it re-signed by another key, in rejected/"
            )
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
