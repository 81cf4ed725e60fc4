import struct FoundationEssentials.Date

/// Latching locks, opening the pages they complete, and the clock that time locks wait for.
extension Engine {
    // MARK: - Latching and opening

    /// Latches these locks (they held just now, or at `reachedAt`: a place a late key revealed) and opens every
    /// page a fully latched set now covers.
    mutating func latch(_ refs: some Sequence<LockRef>, now: Now, reachedAt: [LockRef: Date] = [:]) -> [Effect] {
        var touched: Set<MessageID> = []
        for ref in refs {
            guard var stored = entries[ref.id], stored.state.latched[ref.key] == nil else { continue }
            stored.state.latched[ref.key] = reachedAt[ref] ?? now.wall
            entries[ref.id] = stored
            unregister(ref)
            touched.insert(ref.id)
        }
        return openCompleted(touched, persistAlways: true, now: now)
    }

    /// Opens every page of these messages whose set is fully latched (and, in format 2, whose content is known;
    /// a guard's content is asked for). `persistAlways` when latches changed even if no page opens.
    mutating func openCompleted(_ ids: some Collection<MessageID>, persistAlways: Bool, now: Now) -> [Effect] {
        var effects: [Effect] = []
        var openedLinks: [PageLink] = []
        for id in ids.sorted() {
            guard var stored = entries[id] else { continue }
            var opened: [OpenPage] = []
            for (pageIndex, page) in stored.message.pages.enumerated() where !stored.state.isOpen(page: pageIndex + 1) {
                let number = pageIndex + 1
                let set = LockSetName.allCases.first { set in
                    !page[set].isEmpty
                        && page[set].allSatisfy {
                            stored.state.latched[LockKey(page: number, set: set, kind: $0.kind)] != nil
                        }
                }
                guard set != nil || (page.sealed != nil && page.isUnlocked) else { continue }
                // docs/HUNTS.md "The hunt's start and end": the locks stay latched; the page waits for the window.
                if let hold = huntWindowKeepsClosed(stored, page: number, set: set, now: now) {
                    holdBack(id, hold)
                    continue
                }
                var content: SealedContent?
                if page.sealed != nil {
                    let (known, requests) = self.content(of: id, page: number, set: set)
                    effects += requests
                    guard let known else { continue }
                    content = known
                    seal.contents[id]?[number] = nil
                }
                var open = OpenPage(page: number, set: set, at: now.wall, delivered: false, content: content)
                open.proofKey = takeProofKey(PageLink(message: id, page: number))
                if let set, page[set].contains(where: { $0.kind == .location }) {
                    let place = LockRef(id: id, key: LockKey(page: number, set: set, kind: .location))
                    open.reachedAt = stored.state.latched[place.key]
                    open.evidence = evidence(
                        locks: page[set].map(\.kind), reached: seal.reached.removeValue(forKey: place),
                        reachedAt: open.reachedAt, now: now)
                } else {
                    open.evidence = set.map {
                        evidence(locks: page[$0].map(\.kind), reached: nil, reachedAt: nil, now: now)
                    }
                }
                opened.append(open)
            }
            guard persistAlways || !opened.isEmpty else { continue }
            stored.state.openPages += opened
            entries[id] = stored
            openedLinks += opened.map { PageLink(message: id, page: $0.page) }
            for page in opened {
                for key in stored.message.lockKeys(page: page.page) { unregister(LockRef(id: id, key: key)) }
            }
            // Announced only once on disk: an unlock a restart would not find is never told.
            var announce: [Effect] = []
            // Every opening is told, a hunt's page without locks too (sealed under the start key, it opens when that
            // key comes: issue 59); only a page opened by a set of locks makes a receipt for the board.
            for page in opened {
                let unlock = Unlock(stored, page)
                announce += [.emit(.unlocked(unlock)), .notify(unlock)]
                if page.set != nil { announce += huntReceipt(stored, page) }
            }
            // A watcher heard of it: delivered, recorded after the event so a crash in between repeats it.
            if !subscribers.isEmpty { announce += markDelivered(id, pages: opened.map(\.page)) }
            effects.append(.persist(id, stored.state, then: announce))
        }
        return openedLinks.isEmpty ? effects : effects + latch(waitingFor(openedLinks), now: now)
    }

    // MARK: - Time

    /// Whether a time lock's instant has come by the trusted clock.
    func timeHolds(_ instant: Date, _ now: Now, ref: LockRef) -> Bool {
        if gpsTimes.contains(ref) { return LockRule.gpsTime(instant, gps: hardwareTime(now)) == nil }
        return LockRule.time(instant, trusted: clock.trustedTime(now), correction: clock.correction(now)) == nil
    }

    /// The pending time locks whose instant has come.
    func dueTimeLocks(_ now: Now) -> [LockRef] {
        times.filter { timeHolds($0.value, now, ref: $0.key) }.map(\.key)
    }

    /// The next pending time lock's instant, on the system clock, as a `.wake` when it changed.
    mutating func rescheduleWake(_ now: Now) -> [Effect] {
        let trusted = clock.trustedTime(now)
        // The hunt's start and end wake the engine as a time lock would (Engine+Schedule.swift).
        var next =
            (times.values.filter { $0 > trusted } + huntWindowInstants(after: trusted)
            + [nextHintDue(after: trusted)].compactMap { $0 }).min()
            .map { $0.addingTimeInterval(clock.correction(now)) }
        // While GPS time holds locks back, its evidence ageing out may open them (docs/SECURITY.md).
        if let due = next, abs(clock.correction(now)) > 1, let expiry = clock.evidenceExpiry(now) {
            next = min(due, expiry)
        }
        // A seal worker resting for its senders' shares takes its next cell when one refills (CellQueue.resumesAt).
        if let resume = seal.cells.resumesAt(now.monotonic).map({ now.wall.addingTimeInterval($0 - now.monotonic) }) {
            next = min(next ?? resume, resume)
        }
        guard scheduledWake != .some(next) else { return [] }
        scheduledWake = .some(next)
        return [.wake(at: next)]
    }
}
