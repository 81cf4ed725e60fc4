import struct FoundationEssentials.Date

/// The fixes the engine keeps so that a sealed place whose key arrives late is judged on the fixes that were there
/// (docs/DESIGN.md "Late keys"): one buffer for the whole chest, the last report of each of the last
/// `epochs` epochs, and beyond them only the fixes a cell still waiting for its key holds on to (`pin`).
struct FixHistory: Sendable {
    /// One epoch as it was seen.
    struct Entry: Sendable {
        /// Counts epochs: two entries are consecutive when their sequences differ by one. A break in the feed (a
        /// report without a position, gpsd gone) skips one.
        let sequence: Int
        /// The epoch's last report, without the sky view (it is only ever judged as a position).
        var fix: Fix
        /// The system clock when it arrived: when a place was reached, if this fix reached it.
        var wall: Date
        /// What the trust assessor found about the fix when it arrived: a place a late key reveals was reached with
        /// this trust, whatever the trust is when the key comes (docs/DESIGN.md "Late keys"). Two bytes; the
        /// receiver itself is not kept with every fix (docs/BENCHMARKS.md "Sealed pages (format 3)").
        var findings: TrustAssessor.Findings

        /// Whether the fix came from a hardware receiver when it arrived.
        var hardware: Bool { TrustAssessor.level(findings) == .hardware }

        func follows(_ previous: Entry) -> Bool { sequence == previous.sequence + 1 }
    }

    /// Epochs kept whatever waits; about 2 minutes of a 1 Hz receiver.
    static let epochs = 120

    /// The kept entries, oldest first.
    var entries: [Entry] { Array(storage[head...]) }
    /// The entries, of which those before `head` are dropped already: a run of them is let go of at once, not one
    /// entry a fix, which moved the whole window in memory on every fix (docs/BENCHMARKS.md "The fix path's
    /// CPU").
    private var storage: [Entry] = []
    private var head = 0
    /// How many waiting cells hold each sequence.
    private var pins: [Int: Int] = [:]
    private var nextSequence = 0

    /// Keeps a fresh fix with a position: a new entry for a new epoch, or the epoch's entry replaced by its later
    /// report (the 3D one with altitude). Returns the entry as kept.
    mutating func record(_ fix: Fix, epoch: Double, wall: Date, findings: TrustAssessor.Findings) -> Entry {
        var fix = fix
        fix.sky = nil
        if storage.count > head, let last = storage.last, last.sequence == nextSequence - 1, last.fix.epoch == epoch {
            storage[storage.count - 1].fix = fix
            storage[storage.count - 1].wall = wall
            storage[storage.count - 1].findings = findings
            return storage[storage.count - 1]
        }
        let entry = Entry(sequence: nextSequence, fix: fix, wall: wall, findings: findings)
        nextSequence += 1
        storage.append(entry)
        evict()
        return entry
    }

    /// The feed broke: the next fix is never consecutive with the last.
    mutating func breakRun() {
        if storage.count > head, storage.last?.sequence == nextSequence - 1 { nextSequence += 1 }
    }

    /// The last `count` consecutive entries, oldest first.
    func lastRun(_ count: Int) -> [Entry] {
        var run: [Entry] = []
        for entry in storage[head...].reversed() {
            if let later = run.first, !later.follows(entry) { break }
            run.insert(entry, at: 0)
            if run.count == count { break }
        }
        return run
    }

    /// Holds these sequences past the window, for a cell waiting for its key.
    mutating func pin(_ sequences: some Sequence<Int>) {
        for sequence in sequences { pins[sequence, default: 0] += 1 }
    }

    /// Lets go of what `pin` held.
    mutating func unpin(_ sequences: some Sequence<Int>) {
        for sequence in sequences {
            guard let count = pins[sequence] else { continue }
            pins[sequence] = count > 1 ? count - 1 : nil
        }
        evict()
    }

    /// Drops what is past the window and held by no waiting cell. Nothing to drop while the buffer holds no more
    /// than the window and the pins, so most fixes cost no scan.
    private mutating func evict() {
        guard storage.count - head > Self.epochs + pins.count else { return }
        let cutoff = nextSequence - Self.epochs
        guard pins.isEmpty else {
            // A pinned entry is never dropped, so every pin names an entry and the guard above stays exact.
            storage = storage[head...].filter { $0.sequence >= cutoff || pins[$0.sequence] != nil }
            head = 0
            return
        }
        // Without pins the entries past the window are a prefix: skipped now, removed once a window's worth.
        while head < storage.count, storage[head].sequence < cutoff { head += 1 }
        if head >= Self.epochs {
            storage.removeFirst(head)
            head = 0
        }
    }
}
