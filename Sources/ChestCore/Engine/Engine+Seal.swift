import struct FoundationEssentials.Data
import struct FoundationEssentials.Date

/// Format 2 pages (docs/DESIGN.md "Sealed pages"): the engine names the key derivation to try, the daemon's
/// seal worker computes it, and the answer comes back as `.keyDerived`.
extension Engine {
    // MARK: - Fixes

    /// Keeps the fix (docs/DESIGN.md "Late keys"), follows every watched sealed location lock onto its grid, and
    /// files the cell of each lock the fix qualifies in: the derivation starts at the first fix in a cell, so that
    /// by the third, which may reach a place, its key is on its way (docs/DESIGN.md "Sealed pages").
    mutating func sealedFix(_ fix: Fix, now: Now) -> [Effect] {
        guard let position = fix.position else {
            seal.history.breakRun()
            seal.watches.updateValues { _, watch in watch.latest = nil }
            return resumeCells(now)
        }
        let entry = seal.history.record(fix, epoch: fix.epoch, wall: now.wall, findings: trust.findings)
        let hardware = entry.hardware
        guard !seal.watches.isEmpty else { return resumeCells(now) }
        let λ = position.longitude * .pi / 180
        let y = Coordinate.earthRadius * position.latitude * .pi / 180
        var settled: [LockRef] = []
        seal.watches.updateValues { ref, watch in
            watch.latest =
                watch.counts(eph: fix.eph, hardware: hardware)
                ? watch.point(longitude: λ, y: y, sequence: entry.sequence) : nil
            if watch.latest != nil { settled.append(ref) }
        }
        guard !settled.isEmpty else { return resumeCells(now) }
        let pins = seal.history.lastRun(Self.confirmations).map(\.sequence)
        for ref in settled {
            guard let cell = seal.watches[ref]?.latest?.cell else { continue }
            fileCell(cell, for: ref, pins: pins)
        }
        return dispatchCell(now)
    }

    /// Files a cell of a sealed location lock for its key, held by the fixes `pins`, unless that cell was tried or
    /// the set needs a PIN or an answer nobody gave yet.
    mutating func fileCell(_ cell: Cell, for ref: LockRef, pins: [Int]) {
        guard let request = cellRequest(cell, for: ref), let derivation = request.derivation else { return }
        let slot = SlotRef(id: ref.id, page: ref.key.page, set: ref.key.set)
        let owner = seal.watches[ref]?.owner ?? entries[ref.id]?.sealOwner ?? ref.id.rawValue
        let (held, released) = seal.cells.add(
            request, slot: slot, derivation: derivation, cell: cell, pins: pins, owner: owner)
        seal.history.pin(held)
        seal.history.unpin(released)
    }

    /// The request for a cell's key of a sealed location lock, if it may be asked.
    func cellRequest(_ cell: Cell, for ref: LockRef) -> KeyRequest? {
        guard let stored = entries[ref.id], stored.message.pages.indices.contains(ref.key.page - 1),
            stored.state.latched[ref.key] == nil, !stored.state.isOpen(page: ref.key.page),
            let sealed = stored.message.pages[ref.key.page - 1].sealed,
            !stored.state.seal.hasTried(cell, for: ref.key)
        else { return nil }
        var pin: String?
        if stored.message.pages[ref.key.page - 1][ref.key.set].contains(.sealedPIN) {
            guard let kept = stored.state.seal.keptPIN(page: ref.key.page) else { return nil }
            pin = kept
        }
        var answer: String?
        if stored.message.pages[ref.key.page - 1][ref.key.set].contains(.answer) {
            guard let kept = stored.state.seal.keptAnswer(page: ref.key.page) else { return nil }
            answer = kept
        }
        return keyRequest(
            stored, page: ref.key.page, set: ref.key.set, of: sealed, cell: cell, pin: pin, answer: answer)
    }

    /// Files the cell of every kept fix that qualifies on this lock's grid, as `sealedFix` would have: for a PIN kept
    /// after the reader walked, whose cells could not be asked before.
    mutating func fileKeptCells(for ref: LockRef) {
        guard let watch = seal.watches[ref] else { return }
        let entries = seal.history.entries
        for (index, entry) in entries.enumerated() {
            guard let position = entry.fix.position, watch.counts(eph: entry.fix.eph, hardware: entry.hardware),
                let point = watch.point(
                    longitude: position.longitude * .pi / 180,
                    y: Coordinate.earthRadius * position.latitude * .pi / 180, sequence: entry.sequence)
            else { continue }
            let pins = entries[max(0, index - 2)...index].map(\.sequence)
            fileCell(point.cell, for: ref, pins: pins)
        }
    }

    /// The worker rests while every sender with cells waiting has spent its share (`CellQueue.share`): each fix and
    /// tick hands it the next cell once a share refilled.
    mutating func resumeCells(_ now: Now) -> [Effect] {
        seal.cells.waiting.isEmpty ? [] : dispatchCell(now)
    }

    /// Hands the seal worker the next cell, unless it has one: the cell the reader is in first, then the newest.
    mutating func dispatchCell(_ now: Now) -> [Effect] {
        guard seal.cells.flight == nil else { return [] }
        // Taken out while it changes, so that the closures' reads of the engine copy nothing.
        var cells = seal.cells
        seal.cells = CellQueue()
        let watches = seal.watches
        let (requests, released) = cells.next(
            at: now.monotonic,
            isLive: { slot, request in
                let ref = LockRef(id: slot.id, key: LockKey(page: slot.page, set: slot.set, kind: .location))
                return watches[ref] != nil
                    && request.cell.flatMap { cellRequest($0, for: ref)?.derivation } == request.derivation
            },
            isCurrent: { item in
                item.requests.keys.contains { slot in
                    watches[LockRef(id: slot.id, key: LockKey(page: slot.page, set: slot.set, kind: .location))]?
                        .latest?.cell == item.cell
                }
            })
        seal.cells = cells
        seal.history.unpin(released)
        seal.derivations += requests.count
        // Resting for the senders' shares: the engine wakes when one refills, fixes or not.
        return requests.isEmpty ? rescheduleWake(now) : requests.map(Effect.deriveKey)
    }

    // MARK: - Answers

    /// The seal worker's answer. A cell's answer ends its item's wait once every set of it is answered: its fixes
    /// are let go and the next cell goes to the worker.
    mutating func keyDerived(_ request: KeyRequest, _ result: KeyResult, now: Now) -> [Effect] {
        let slotRef = SlotRef(id: request.id, page: request.page, set: request.set)
        guard request.cell != nil, let derivation = request.derivation else {
            seal.pending.remove(slotRef)
            return judge(request, result, now: now)
        }
        let finished = seal.cells.answered(derivation, slot: slotRef, at: now.monotonic)
        var effects = judge(request, result, now: now)
        guard let finished else { return effects }
        seal.history.unpin(finished.pins)
        effects += dispatchCell(now)
        return effects
    }

    /// What an answer means for its page.
    private mutating func judge(_ request: KeyRequest, _ result: KeyResult, now: Now) -> [Effect] {
        let slotRef = SlotRef(id: request.id, page: request.page, set: request.set)
        guard var stored = entries[request.id] else { return [] }
        // Asked for a version the message no longer is (a newer one replaced it meanwhile): its answer is not this
        // page's; the locks of the new version ask again.
        guard stored.message.pages.indices.contains(request.page - 1),
            stored.message.pages[request.page - 1].sealed?.ciphertext == request.ciphertext
        else { return [] }
        var effects: [Effect] = []
        let opened: SealedContent?
        switch result {
        case let .opened(content):
            opened = content
        case .wrong, .damaged:
            opened = nil
            let key = LockKey(page: request.page, set: request.set, kind: .location)
            if let cell = request.cell, !stored.state.seal.hasTried(cell, for: key) {
                stored.state.seal.tried[key, default: []].append(cell)
                entries[request.id] = stored
                effects.append(.persist(request.id, stored.state))
            }
        }
        if let content = opened {
            seal.contents[request.id, default: [:]][request.page] = content
            effects += unsealed(slotRef, content, pinAttempt: request.cell == nil && request.guess != nil, now: now)
        }
        // A PIN attempt waits for every slot it tried.
        if request.cell == nil, let guess = request.guess, var attempt = seal.attempts[request.id],
            attempt.guess == guess,
            attempt.outstanding.remove(slotRef) != nil
        {
            if opened != nil {
                attempt.matching.append(LockKey(page: request.page, set: request.set, kind: guess.lockKind))
            }
            seal.attempts[request.id] = attempt
            if attempt.outstanding.isEmpty {
                seal.attempts[request.id] = nil
                effects += concludeGuess(request.id, guess: guess, matching: attempt.matching, now: now)
            }
        }
        return effects
    }

    /// A set's key opened the page: its hidden location becomes an ordinary circle (the usual rule decides, fed every
    /// kept fix at once), a PIN that came with a place latches, and a page waiting only for its content opens.
    private mutating func unsealed(_ slot: SlotRef, _ content: SealedContent, pinAttempt: Bool, now: Now) -> [Effect] {
        guard let stored = entries[slot.id], stored.message.pages.indices.contains(slot.page - 1) else { return [] }
        let locks = stored.message.pages[slot.page - 1][slot.set]
        var held: [LockRef] = []
        var reachedAt: [LockRef: Date] = [:]
        if locks.contains(where: { if case .sealedLocation = $0 { true } else { false } }),
            let hidden = content[slot.set]
        {
            let ref = LockRef(id: slot.id, key: LockKey(page: slot.page, set: slot.set, kind: .location))
            seal.watches[ref] = nil
            if stored.state.latched[ref.key] == nil {
                locations.insert(ref, center: hidden.center, radius: hidden.radius)
                if let reached = replay(
                    ref, center: hidden.center, radius: hidden.radius,
                    requiresHardware: stored.message.requiresHardware)
                {
                    seal.reached[ref] = reached.run
                    reachedAt[ref] = reached.at
                    held.append(ref)
                }
            }
            if locks.contains(.sealedPIN) {
                held.append(LockRef(id: slot.id, key: LockKey(page: slot.page, set: slot.set, kind: .pin)))
            }
            if locks.contains(.answer) {
                held.append(LockRef(id: slot.id, key: LockKey(page: slot.page, set: slot.set, kind: .answer)))
            }
        }
        if locks.contains(where: { $0.kind == .release }) {
            held.append(LockRef(id: slot.id, key: LockKey(page: slot.page, set: slot.set, kind: .release)))
        }
        _ = pinAttempt
        return latch(held, now: now, reachedAt: reachedAt) + openCompleted([slot.id], persistAlways: false, now: now)
    }

    /// Judges a place a key revealed on the kept fixes, as if it had been known all along (docs/DESIGN.md "Late
    /// keys"): the first run of `confirmations` consecutive qualified fixes inside it reached it, and its last fix
    /// says when. Without one, the streak the latest fixes make is left for the fixes still to come.
    mutating func replay(_ ref: LockRef, center: Coordinate, radius: Double, requiresHardware: Bool) -> (
        at: Date, run: [FixHistory.Entry]
    )? {
        streaks[ref] = nil
        var previous: FixHistory.Entry?
        var run: [FixHistory.Entry] = []
        for entry in seal.history.entries {
            if let previous, !entry.follows(previous) {
                streaks[ref] = nil
                run = []
            }
            previous = entry
            guard let position = entry.fix.position, entry.hardware || !requiresHardware,
                LockRule.location(position, eph: entry.fix.eph, center: center, radius: radius) == nil
            else {
                streaks[ref] = nil
                run = []
                continue
            }
            let count = advance(ref, fix: entry.fix, gap: cadence.maximumGap)
            if count == 1 { run = [] }
            run.append(entry)
            if count >= Self.confirmations {
                streaks[ref] = nil
                return (entry.wall, Array(run.suffix(Self.confirmations)))
            }
        }
        return nil
    }

    /// The content of a format 2 page, or the request for it when the set that holds is a guard; nil content and no
    /// request when it cannot be had yet.
    mutating func content(of id: MessageID, page number: Int, set: LockSetName?) -> (SealedContent?, [Effect]) {
        if let known = seal.contents[id]?[number] { return (known, []) }
        guard let stored = entries[id], let sealed = stored.message.pages[number - 1].sealed,
            case .guarded = sealed.slots[set ?? .a]
        else { return (nil, []) }
        let slotRef = SlotRef(id: id, page: number, set: set ?? .a)
        guard let request = keyRequest(stored, page: number, set: set ?? .a, of: sealed),
            seal.pending.insert(slotRef).inserted
        else { return (nil, []) }
        return (nil, [.deriveKey(request)])
    }

    /// The request for one set of a page of `stored`: answered to its chest ID, its strings made of the ID sealed in
    /// its file, with the hunt's start key when its format needs it.
    func keyRequest(
        _ stored: StoredMessage, page: Int, set: LockSetName, of sealed: SealedPage, cell: Cell? = nil,
        pin: String? = nil, release: (name: String, key: String)? = nil, answer: String? = nil
    ) -> KeyRequest? {
        var request = KeyRequest(
            id: stored.id, page: page, set: set, of: sealed, cell: cell, pin: pin, release: release, answer: answer,
            start: startKey(for: stored))
        request?.sealedID = stored.message.id
        return request
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
}
