/// Releases (docs/HUNTS.md "Releases"): the hunt's organiser publishes a key by name, and every set locked by that
/// name derives its page key from it. A release is its set's only secret, so the key alone opens the slot.
extension Engine {
    /// A release arrived (or arrived again: the broker keeps it and sends it on every reconnect).
    /// The start key (`HuntRelease.startName`) is no set's release: every page of a format 6 message needs it.
    mutating func released(_ name: String, key: ReleaseKey, now: Now) -> [Effect] {
        guard seal.releases[name] != key else { return [] }
        seal.releases[name] = key
        guard name == HuntRelease.startName else {
            return entries.keys.sorted().flatMap { tryReleases(of: $0, named: name) }
        }
        return entries.keys.sorted().flatMap { tryReleases(of: $0) } + startKeyArrived(now: now)
    }

    /// The names of the releases that arrived, for `status`.
    package var releaseNames: [String] { seal.releases.keys.sorted() }

    /// Asks for the key of each set of the message that waits for a release already published (or only for
    /// `name`), unless it latched or a derivation for it is under way.
    mutating func tryReleases(of id: MessageID, named name: String? = nil) -> [Effect] {
        guard !seal.releases.isEmpty, let stored = entries[id], !stored.sentByYou else { return [] }
        var effects: [Effect] = []
        for (index, page) in stored.message.pages.enumerated() where !stored.state.isOpen(page: index + 1) {
            guard let sealed = page.sealed else { continue }
            for set in LockSetName.allCases {
                guard
                    let release = page[set].lazy.compactMap({ if case let .release(name) = $0 { name } else { nil } })
                        .first,
                    name == nil || name == release, let key = seal.releases[release],
                    let request = keyRequest(
                        stored, page: index + 1, set: set, of: sealed, release: (release, key.base64)),
                    stored.state.latched[LockKey(page: index + 1, set: set, kind: .release)] == nil,
                    seal.pending.insert(SlotRef(id: id, page: index + 1, set: set)).inserted
                else { continue }
                seal.derivations += 1
                effects.append(.deriveKey(request))
            }
        }
        return effects
    }
}
