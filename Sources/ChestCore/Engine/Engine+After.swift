/// `after` locks: a page that opens once another page is open in the reader's chest (docs/QUEST.md "Chains").
extension Engine {
    /// Why the linked page does not count yet, or nil when it is open in either chest.
    func afterProblem(_ link: PageLink) -> LockReason? {
        LockRule.after(link, in: entries[link.message])
    }

    /// The pending `after` locks that wait for one of these pages.
    func waitingFor(_ links: [PageLink]) -> [LockRef] {
        let opened = Set(links)
        return afters.filter { opened.contains($0.value) }.map(\.key).sorted { ($0.id, $0.key) < ($1.id, $1.key) }
    }

    /// The `after` locks of a message just added whose page is already open, and those of other messages
    /// that wait for one of its pages already open.
    func satisfiedAfters(of id: MessageID) -> [LockRef] {
        guard let stored = entries[id] else { return [] }
        let own = afters.filter { $0.key.id == id && afterProblem($0.value) == nil }.map(\.key)
        let others = waitingFor(stored.state.openPages.map { PageLink(message: id, page: $0.page) })
        return (own + others).sorted { ($0.id, $0.key) < ($1.id, $1.key) }
    }
}
