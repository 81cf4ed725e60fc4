/// `after` locks: a page that opens once another page is open in the reader's chest (docs/QUEST.md "Chains").
extension Engine {
    /// The message an `after` lock of `waiting` names: the one with that ID sealed by the same key (a quest's
    /// messages are one sender's), under whichever chest ID it is filed, so another sender's message with that ID
    /// opens nothing of it (docs/SECURITY.md "Round five (issue 61)").
    func linked(_ link: PageLink, of waiting: StoredMessage) -> StoredMessage? {
        entries.message(MessageIdentity(id: link.message, key: waiting.message.seal?.publicKey ?? []))
    }

    /// Why the linked page does not count yet for a lock of `waiting`, or nil when it is open in either chest.
    func afterProblem(_ link: PageLink, of waiting: StoredMessage?) -> LockReason? {
        LockRule.after(link, in: waiting.flatMap { linked(link, of: $0) })
    }

    /// The pending `after` locks that wait for one of these pages (named by their messages' chest IDs).
    func waitingFor(_ links: [PageLink]) -> [LockRef] {
        let opened = Set(
            links.compactMap { link in
                entries[link.message].map { PageLink(message: $0.message.id, page: link.page) }
            })
        return afters.filter { opened.contains($0.value) && afterProblem($0.value, of: entries[$0.key.id]) == nil }
            .map(\.key).sorted { ($0.id, $0.key) < ($1.id, $1.key) }
    }

    /// The `after` locks of a message just added whose page is already open, and those of other messages
    /// that wait for one of its pages already open.
    func satisfiedAfters(of id: MessageID) -> [LockRef] {
        guard let stored = entries[id] else { return [] }
        let own = afters.filter { $0.key.id == id && afterProblem($0.value, of: stored) == nil }.map(\.key)
        let others = waitingFor(stored.state.openPages.map { PageLink(message: id, page: $0.page) })
        return (own + others).sorted { ($0.id, $0.key) < ($1.id, $1.key) }
    }
}
