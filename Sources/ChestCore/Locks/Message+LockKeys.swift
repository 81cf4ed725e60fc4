extension Message {
    /// Every lock of every page, by key.
    var allLockKeys: [LockKey] { pages.indices.flatMap { lockKeys(page: $0 + 1) } }

    func lockKeys(page number: Int) -> [LockKey] {
        LockSetName.allCases.flatMap { set in
            pages[number - 1][set].map { LockKey(page: number, set: set, kind: $0.kind) }
        }
    }

    /// The lock a key names.
    package func lock(_ key: LockKey) -> Lock? {
        guard pages.indices.contains(key.page - 1) else { return nil }
        return pages[key.page - 1][key.set].first { $0.kind == key.kind }
    }
}
