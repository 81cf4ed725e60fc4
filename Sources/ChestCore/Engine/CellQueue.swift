/// The cells waiting for their key (docs/DESIGN.md "Late keys"): one item per derivation, so places laid on one
/// grid wait once for a cell; the cell the reader is in goes first, then the cells of the sender the worker served
/// least, then the newest; one item at a time is with the seal worker. Nothing is dropped while there is room; each
/// item holds on to the fixes that asked for it, so its answer is judged on them however late it comes. No sender
/// holds more than `perOwner` waiting cells, and all of one sender's messages together have at most `share` of the
/// worker's time, however many files it sent (docs/SECURITY.md "A message's share of the reader").
struct CellQueue: Sendable {
    struct Item: Sendable {
        var cell: Cell
        /// Every set waiting for this cell's key.
        var requests: [SlotRef: KeyRequest]
        /// The newest epoch (`FixHistory.Entry.sequence`) that asked for it.
        var newest: Int
        /// The history's sequences it holds on to, oldest first.
        var pins: [Int]
        /// The senders (their keys) whose sets wait for it.
        var owners: Set<String> = []
    }

    /// The item with the seal worker.
    struct Flight: Sendable {
        var derivation: KeyRequest.Derivation
        var item: Item
        var outstanding: Set<SlotRef>
        /// Monotonic seconds when it was handed over.
        var since: Double
    }

    /// Cells waiting at most: about 12 minutes of Argon2id at the default place cost. Past it the oldest is
    /// forgotten (docs/LIMITATIONS.md: a drive past that many organisers' cells outruns one core).
    static let limit = 512
    /// Fixes one cell holds on to beyond the history's window: the latest of the runs that asked for it.
    static let pinsPerCell = 30
    /// Cells one sender may have waiting: a quarter of the queue, so that one file's grids cannot fill it.
    static let perOwner = limit / 4
    /// What a cell is assumed to cost until one was timed: the default place cost on a laptop core
    /// (docs/BENCHMARKS.md "Sealed pages (format 3)").
    static let nominalSeconds = 1.5
    /// The part of the worker's time one sender's cells may have, over all its messages: what one message at the
    /// budget asks on a walk (eight derivations per cell settled in, docs/SECURITY.md "A message's share of the
    /// reader"). Budgets were weighed per message, so a sender's second file doubled its take (issue 45).
    static let share = 0.5
    /// Worker seconds a sender may bank while its cells do not wait: one budget's derivations at the nominal cost,
    /// so that an honest message's cells for a place the reader just entered go at once.
    static let burst = Double(SealBudget.perFix / SealBudget.unit.work) * nominalSeconds

    /// What a sender may still take of the worker: seconds, reckoned at a monotonic instant.
    struct Allowance: Sendable {
        var seconds: Double
        var at: Double
    }

    private(set) var waiting: [KeyRequest.Derivation: Item] = [:]
    private(set) var flight: Flight?
    /// The last cell's time with the worker, to say how long the rest will take.
    private(set) var secondsPerCell: Double?
    /// Seconds of the worker each sender's cells have had: the least served goes first.
    private(set) var served: [String: Double] = [:]
    /// Waiting cells per sender, kept as items come and go so that filing a cell needs no scan.
    private(set) var held: [String: Int] = [:]
    /// The senders that took more than their share lately; one absent has a full `burst`.
    private(set) var allowances: [String: Allowance] = [:]

    /// Worker seconds `owner`'s cells may still take at `monotonic`: the bank refills at `share` of each second.
    func allowance(of owner: String, at monotonic: Double) -> Double {
        guard let kept = allowances[owner] else { return Self.burst }
        return min(Self.burst, kept.seconds + Self.share * max(0, monotonic - kept.at))
    }

    /// When a resting worker may take a cell again (monotonic seconds): the first moment a waiting cell's sender has
    /// refilled its share. Nil when the worker has a cell, nothing waits, or a cell may go now. Without it, a resting
    /// worker would wait for the next fix, and a walk that ended left its last cells untried.
    func resumesAt(_ monotonic: Double) -> Double? {
        guard flight == nil, !waiting.isEmpty else { return nil }
        var earliest = Double.infinity
        for item in waiting.values {
            for owner in item.owners {
                guard let kept = allowances[owner] else { return nil }
                // A little past the instant the bank reaches nothing: a cell goes once it holds more than nothing.
                let refilled = kept.at + max(0, -kept.seconds) / Self.share + 0.01
                guard refilled > monotonic else { return nil }
                earliest = min(earliest, refilled)
            }
            if item.owners.isEmpty { return nil }
        }
        return earliest.isFinite ? earliest : nil
    }

    /// Cells waiting or with the worker.
    var count: Int { waiting.count + (flight == nil ? 0 : 1) }

    /// About how long until every waiting cell is tried.
    var secondsLeft: Double { Double(count) * (secondsPerCell ?? Self.nominalSeconds) }

    /// Files a set's request for a cell, asked for by the fixes `pins` (the newest last). Returns the sequences
    /// newly held and those let go (a cell forgotten for room, or pins beyond a cell's share).
    mutating func add(
        _ request: KeyRequest, slot: SlotRef, derivation: KeyRequest.Derivation, cell: Cell,
        pins: [Int], owner: String = ""
    ) -> (held: [Int], released: [Int]) {
        let newest = pins.last ?? -1
        if var flight, flight.derivation == derivation, flight.item.requests[slot] != nil {
            let change = Self.merge(pins, into: &flight.item.pins)
            flight.item.newest = max(flight.item.newest, newest)
            self.flight = flight
            return change
        }
        var released: [Int] = []
        if waiting[derivation] == nil {
            // Room is made at the expense of this sender when it holds its share, else of whoever holds the most.
            var victim: String?
            if held[owner, default: 0] >= Self.perOwner {
                victim = owner
            } else if waiting.count >= Self.limit {
                victim = held.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
            }
            if let victim,
                let oldest = waiting.lazy.filter({ $0.value.owners.contains(victim) }).min(by: {
                    $0.value.newest < $1.value.newest
                }),
                let removed = remove(oldest.key)
            {
                released = removed.pins
            }
        }
        var item = waiting[derivation] ?? Item(cell: cell, requests: [:], newest: newest, pins: [])
        item.requests[slot] = request
        if item.owners.insert(owner).inserted { held[owner, default: 0] += 1 }
        item.newest = max(item.newest, newest)
        let change = Self.merge(pins, into: &item.pins)
        waiting[derivation] = item
        return (change.held, released + change.released)
    }

    /// Takes the next item for the worker among those of a sender within its share: the first whose cell `isCurrent`
    /// says the reader is in, then the least served sender's, then the newest. Requests `isLive` no longer wants are
    /// dropped on the way (the page opened, the message went, a new PIN). Returns the requests to hand over (none when
    /// nothing waits, one is with the worker, or every waiting sender spent its share: the worker then rests until a
    /// later call finds one refilled) and the sequences let go.
    mutating func next(
        at monotonic: Double, isLive: (SlotRef, KeyRequest) -> Bool,
        isCurrent: (Item) -> Bool
    ) -> (requests: [KeyRequest], released: [Int]) {
        guard flight == nil else { return ([], []) }
        var released: [Int] = []
        for (derivation, item) in waiting {
            let live = item.requests.filter { isLive($0.key, $0.value) }
            if live.isEmpty {
                released += item.pins
                remove(derivation)
            } else if live.count != item.requests.count {
                waiting[derivation]?.requests = live
            }
        }
        allowances = allowances.filter { allowance(of: $0.key, at: monotonic) < Self.burst }
        let served = self.served
        let allowances = self.allowances
        func charge(_ item: Item) -> Double { item.owners.map { served[$0] ?? 0 }.min() ?? 0 }
        // A cell shared by several senders goes while any of them is within its share.
        func allowed(_ item: Item) -> Bool {
            item.owners.contains { owner in
                allowances[owner].map { min(Self.burst, $0.seconds + Self.share * max(0, monotonic - $0.at)) > 0 }
                    ?? true
            }
        }
        guard
            let chosen = waiting.lazy.filter({ allowed($0.value) }).max(by: { a, b in
                let current = (isCurrent(a.value), isCurrent(b.value))
                if current.0 != current.1 { return !current.0 }
                let charges = (charge(a.value), charge(b.value))
                return charges.0 != charges.1 ? charges.0 > charges.1 : a.value.newest < b.value.newest
            })
        else { return ([], released) }
        remove(chosen.key)
        flight = Flight(
            derivation: chosen.key, item: chosen.value, outstanding: Set(chosen.value.requests.keys), since: monotonic)
        return (
            chosen.value.requests.sorted {
                ($0.key.id, $0.key.page, $0.key.set.rawValue) < ($1.key.id, $1.key.page, $1.key.set.rawValue)
            }
            .map(\.value), released
        )
    }

    /// The worker answered one set of the item it has. Returns the item once every set is answered (its pins are
    /// then the caller's to let go), nil while some are still out or the answer is not for it.
    mutating func answered(_ derivation: KeyRequest.Derivation, slot: SlotRef, at monotonic: Double) -> Item? {
        guard var flight, flight.derivation == derivation, flight.outstanding.remove(slot) != nil else { return nil }
        guard flight.outstanding.isEmpty else {
            self.flight = flight
            return nil
        }
        self.flight = nil
        let seconds = max(0, monotonic - flight.since)
        secondsPerCell = seconds
        for owner in flight.item.owners {
            let part = seconds / Double(flight.item.owners.count)
            served[owner, default: 0] += part
            allowances[owner] = Allowance(seconds: allowance(of: owner, at: monotonic) - part, at: monotonic)
        }
        return flight.item
    }

    /// Takes an item out of the waiting ones, its senders' counts with it.
    @discardableResult
    private mutating func remove(_ derivation: KeyRequest.Derivation) -> Item? {
        guard let item = waiting.removeValue(forKey: derivation) else { return nil }
        for owner in item.owners {
            let left = held[owner, default: 1] - 1
            held[owner] = left > 0 ? left : nil
        }
        return item
    }

    /// Adds `new` to a cell's pins, keeping the newest `pinsPerCell`.
    private static func merge(_ new: [Int], into pins: inout [Int]) -> (held: [Int], released: [Int]) {
        let held = new.filter { !pins.contains($0) }
        guard !held.isEmpty else { return ([], []) }
        pins = (pins + held).sorted()
        let released = Array(pins.prefix(max(0, pins.count - Self.pinsPerCell)))
        pins.removeFirst(released.count)
        return (held, released)
    }
}
