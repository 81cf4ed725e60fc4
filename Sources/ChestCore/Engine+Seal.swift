import struct Foundation.Date

/// Format 2 pages (docs/DESIGN.md "Sealed pages"): the engine names the key derivation to try, the daemon's
/// seal worker computes it, and the answer comes back as `.keyDerived`.
extension Engine {
    /// A sealed location's cell is tried after this many consecutive qualified fixes in it, so that walking
    /// through a cell costs nothing and the key is ready by the third confirming fix.
    public static let settleFixes = 2

    // MARK: - Fixes

    /// Follows every watched sealed location lock into the cell this fix is in, and asks for the key of each cell
    /// a lock has just settled in.
    mutating func sealedFix(_ fix: Fix) -> [Effect] {
        guard let position = fix.position else {
            for index in seal.watches.values.indices { seal.watches.values[index].count = 0 }
            return []
        }
        // The last report of each epoch: the 3D one with altitude, for unlock evidence too (docs/FORMAT.md).
        if seal.recentFixes.last?.epoch == fix.epoch {
            seal.recentFixes[seal.recentFixes.count - 1] = fix
        } else {
            seal.recentFixes.append(fix)
            if seal.recentFixes.count > Self.confirmations { seal.recentFixes.removeFirst() }
        }
        guard !seal.watches.isEmpty else { return [] }
        let epoch = fix.epoch
        let λ = position.longitude * .pi / 180, y = Coordinate.earthRadius * position.latitude * .pi / 180
        var settled: [LockRef] = []
        let hardware = trust.level == .hardware
        for index in seal.watches.values.indices {
            var watch = seal.watches.values[index]
            // A fix less accurate than half a cell says nothing about which cell the reader is in; one of a trust
            // the organiser did not ask for says nothing at all (docs/SECURITY.md "Hardware trust and time").
            if fix.eph.map({ $0 > watch.grid.width / 2 }) == true || (watch.requiresHardware && !hardware) {
                if watch.count != 0 { seal.watches.values[index].count = 0 }
                continue
            }
            guard let cell = watch.cell(longitude: λ, y: y) else {
                if watch.count != 0 { seal.watches.values[index].count = 0 }
                continue
            }
            if cell == watch.current {
                guard watch.epoch != epoch else { continue }
                watch.count = fix.receivedAt - watch.receivedAt > Fix.maximumAge ? 1 : watch.count + 1
            } else {
                watch.current = cell
                watch.count = 1
            }
            watch.epoch = epoch
            watch.receivedAt = fix.receivedAt
            seal.watches.values[index] = watch
            if watch.count == Self.settleFixes { settled.append(seal.watches.keys[index]) }
        }
        return settled.flatMap { tryCell($0) }
    }

    /// Asks for the key of the cell a sealed location lock is in, unless that cell was tried, a derivation for
    /// the set is under way, or the set needs a PIN nobody entered yet.
    mutating func tryCell(_ ref: LockRef) -> [Effect] {
        guard let stored = entries[ref.id], let watch = seal.watches[ref], let cell = watch.current,
              watch.count >= Self.settleFixes,
              stored.message.pages.indices.contains(ref.key.page - 1) else { return [] }
        let page = stored.message.pages[ref.key.page - 1]
        let slotRef = SlotRef(id: ref.id, page: ref.key.page, set: ref.key.set)
        guard let sealed = page.sealed, !seal.pending.contains(slotRef),
              !stored.state.seal.hasTried(cell, for: ref.key) else { return [] }
        var pin: String?
        if page[ref.key.set].contains(.sealedPIN) {
            guard let kept = stored.state.seal.keptPIN(page: ref.key.page) else { return [] }
            pin = kept
        }
        guard let request = KeyRequest(id: ref.id, page: ref.key.page, set: ref.key.set, of: sealed, cell: cell, pin: pin) else {
            return []
        }
        seal.pending.insert(slotRef)
        seal.derivations += 1
        return [.deriveKey(request)]
    }

    // MARK: - Answers

    /// The seal worker's answer.
    mutating func keyDerived(_ request: KeyRequest, _ result: KeyResult, now: Now) -> [Effect] {
        let slotRef = SlotRef(id: request.id, page: request.page, set: request.set)
        seal.pending.remove(slotRef)
        guard var stored = entries[request.id] else { return [] }
        // Asked for a version the message no longer is (a newer one replaced it meanwhile): its answer is not this
        // page's; the locks of the new version ask again.
        guard stored.message.pages.indices.contains(request.page - 1),
              stored.message.pages[request.page - 1].sealed?.ciphertext == request.ciphertext else { return [] }
        var effects: [Effect] = []
        let opened: SealedContent?
        switch result {
        case let .opened(content):
            opened = content
        case .busy:
            // Nothing was tried: the lock settles again and asks again.
            let ref = LockRef(id: request.id, key: LockKey(page: request.page, set: request.set, kind: .location))
            seal.watches[ref]?.count = 0
            opened = nil
        case .wrong, .damaged:
            opened = nil
            if let cell = request.cell {
                let key = LockKey(page: request.page, set: request.set, kind: .location)
                stored.state.seal.tried[key.description, default: []].append(cell)
                entries[request.id] = stored
                effects.append(.persist(request.id, stored.state))
            }
        }
        if let content = opened {
            seal.contents[request.id, default: [:]][request.page] = content
            effects += unsealed(slotRef, content, pinAttempt: request.cell == nil && request.pin != nil, now: now)
        }
        // A PIN attempt waits for every slot it tried.
        if request.cell == nil, let pin = request.pin, var attempt = seal.attempts[request.id], attempt.pin == pin,
           attempt.outstanding.remove(slotRef) != nil {
            if opened != nil { attempt.matching.append(LockKey(page: request.page, set: request.set, kind: .pin)) }
            seal.attempts[request.id] = attempt
            if attempt.outstanding.isEmpty {
                seal.attempts[request.id] = nil
                effects += concludePIN(request.id, pin: pin, matching: attempt.matching, now: now)
            }
        }
        return effects
    }

    /// A set's key opened the page: its hidden location becomes an ordinary circle (the usual rule decides, fed the
    /// last few fixes at once), a PIN that came with a place latches, and a page waiting only for its content opens.
    private mutating func unsealed(_ slot: SlotRef, _ content: SealedContent, pinAttempt: Bool, now: Now) -> [Effect] {
        guard let stored = entries[slot.id], stored.message.pages.indices.contains(slot.page - 1) else { return [] }
        let locks = stored.message.pages[slot.page - 1][slot.set]
        var held: [LockRef] = []
        if locks.contains(where: { if case .sealedLocation = $0 { true } else { false } }), let hidden = content[slot.set] {
            let ref = LockRef(id: slot.id, key: LockKey(page: slot.page, set: slot.set, kind: .location))
            seal.watches[ref] = nil
            if stored.state.latched[ref.key] == nil {
                locations.insert(ref, center: hidden.center, radius: hidden.radius)
                streaks[ref] = nil
                var count = 0
                for fix in seal.recentFixes {
                    if let position = fix.position, fixCounts(for: ref),
                       LockRule.location(position, eph: fix.eph, center: hidden.center, radius: hidden.radius) == nil {
                        count = advance(ref, fix: fix)
                    } else {
                        streaks[ref] = nil
                        count = 0
                    }
                }
                if count >= Self.confirmations { held.append(ref) }
            }
            if locks.contains(.sealedPIN) { held.append(LockRef(id: slot.id, key: LockKey(page: slot.page, set: slot.set, kind: .pin))) }
        }
        if locks.contains(where: { $0.kind == .release }) {
            held.append(LockRef(id: slot.id, key: LockKey(page: slot.page, set: slot.set, kind: .release)))
        }
        _ = pinAttempt
        return latch(held, now: now) + openCompleted([slot.id], persistAlways: false, now: now)
    }

    /// The content of a format 2 page, or the request for it when the set that holds is a guard; nil content and no
    /// request when it cannot be had yet.
    mutating func content(of id: MessageID, page number: Int, set: LockSetName?) -> (SealedContent?, [Effect]) {
        if let known = seal.contents[id]?[number] { return (known, []) }
        guard let stored = entries[id], let sealed = stored.message.pages[number - 1].sealed,
              case .guarded = sealed.slots[set ?? .a] else { return (nil, []) }
        let slotRef = SlotRef(id: id, page: number, set: set ?? .a)
        guard let request = KeyRequest(id: id, page: number, set: set ?? .a, of: sealed),
              seal.pending.insert(slotRef).inserted else { return (nil, []) }
        return (nil, [.deriveKey(request)])
    }

    /// At load, a secret lock latched on a page that did not open is latched no more: its key is not kept, so the
    /// reader proves the PIN or the place again.
    func forgettingUnprovenSecrets(_ stored: StoredMessage) -> StoredMessage {
        guard stored.message.version >= 2 else { return stored }
        var stored = stored
        for (index, page) in stored.message.pages.enumerated() where !stored.state.isOpen(page: index + 1) {
            for set in LockSetName.allCases {
                for lock in page[set] where lock.isSecret {
                    stored.state.latched[LockKey(page: index + 1, set: set, kind: lock.kind)] = nil
                }
            }
        }
        return stored
    }

    // MARK: - Status

    /// Sealed location locks still watched, cells tried (failed) across the chest, derivations under way.
    public var sealSummary: (pending: Int, cellsTried: Int, deriving: Int) {
        (seal.watches.count, entries.values.reduce(0) { $0 + $1.state.seal.cellsTried }, seal.pending.count)
    }
}
