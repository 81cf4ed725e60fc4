import struct FoundationEssentials.Data
import struct FoundationEssentials.Date

/// The hunt's start and end, and the organiser's word to every team (docs/HUNTS.md "The hunt's start and end",
/// "Word to all teams"). A page is the hunt's when its message was sealed by the hunt's organiser key (the key
/// that signs releases; `compose --hunt` runs as the organiser): before the start none of them opens, after the end
/// none opens whose locks did not all hold before it. Locks latch as always meanwhile, so a page held before the
/// start opens at the start.
extension Engine {
    /// The hunt's start and end in force, when a hunt is joined.
    package var huntSchedule: HuntSchedule? { huntBook.isJoined ? huntBook.schedule : nil }

    /// Whether `stored` is a message of the joined hunt: sealed by its organiser's key.
    func isHuntMessage(_ stored: StoredMessage) -> Bool {
        guard let organiser = huntBook.file?.organiser, let seal = stored.message.seal else { return false }
        return Data(seal.publicKey).base64EncodedString() == organiser
    }

    /// Why the hunt's window keeps this page of `stored` closed now, or nil when it may open. `set` is the set
    /// whose locks all hold (nil for a page without locks): each lock's latch time is when it held (a place's, when
    /// it was reached, docs/DESIGN.md "Late keys"), so a page whose locks all held before the end opens even when its
    /// key arrives after it.
    func huntWindowKeepsClosed(_ stored: StoredMessage, page: Int, set: LockSetName?, now: Now) -> HuntWindowHold? {
        // Format 6: the start is the start key's arrival as well as the clock's (docs/HUNTS.md "The start key").
        if awaitsStartKey(stored) { return .startKey }
        let schedule = huntBook.schedule
        guard !schedule.isEmpty, isHuntMessage(stored) else { return nil }
        let trusted = clock.trustedTime(now)
        if let starts = schedule.starts, !schedule.hasStarted(at: trusted) { return .beforeStart(starts) }
        guard let ends = schedule.closes else { return nil }
        guard let set else { return schedule.hasEnded(at: trusted) ? .afterEnd(ends) : nil }
        let held = stored.message.pages[page - 1][set].compactMap {
            stored.state.latched[LockKey(page: page, set: set, kind: $0.kind)]
        }.max()
        return held.map(schedule.hasEnded(at:)) ?? schedule.hasEnded(at: trusted) ? .afterEnd(ends) : nil
    }

    /// Remembers a message kept closed by the window, to try again at the start or when the schedule changes.
    mutating func holdBack(_ id: MessageID, _ hold: HuntWindowHold) {
        switch hold {
        case .beforeStart, .startKey: huntBook.heldForStart.insert(id)
        case .afterEnd: huntBook.heldAfterEnd.insert(id)
        }
    }

    /// At a tick: the start came, so every page held for it is tried again.
    mutating func huntWindowTick(_ now: Now) -> [Effect] {
        guard !huntBook.heldForStart.isEmpty, huntBook.schedule.hasStarted(at: clock.trustedTime(now)) else {
            return []
        }
        return retryHeldBack(now: now)
    }

    /// Tries again every page the window kept closed (the start came, or the schedule changed).
    mutating func retryHeldBack(now: Now) -> [Effect] {
        let ids = huntBook.heldForStart.union(huntBook.heldAfterEnd).sorted()
        huntBook.heldForStart = []
        huntBook.heldAfterEnd = []
        var effects = ids.flatMap { openLocklessPages($0, announce: true, now: now) }
        effects += openCompleted(ids, persistAlways: false, now: now)
        return effects
    }

    /// The start and the end still to come, by the trusted clock: the engine wakes then (Engine+Latch.swift).
    func huntWindowInstants(after trusted: Date) -> [Date] {
        guard huntBook.isJoined else { return [] }
        let schedule = huntBook.schedule
        return [schedule.starts, schedule.closes].compactMap { $0 }.filter { $0 > trusted }
    }

    /// A signed schedule the gate believed: the newest replaces the one in force, is kept, and every page the
    /// window held is tried again.
    mutating func scheduleHeard(_ schedule: HuntSchedule, id: UInt64, now: Now) -> [Effect] {
        guard let file = huntBook.file else { return [] }
        var word = huntBook.word ?? HuntWord(hunt: file.id)
        // The gate knows the kept id from the start (`joinGate`), so an older one was refused; this is the same or newer.
        guard word.schedule.map({ id > $0.id }) ?? true else { return [] }
        let before = huntBook.schedule
        word.schedule = HuntWord.Schedule(id: id, schedule: schedule)
        huntBook.word = word
        var effects: [Effect] = [.hunt(.keepWord(word))]
        if huntBook.schedule != before { effects += retryHeldBack(now: now) + rescheduleWake(now) }
        return effects
    }

    /// A word from the organiser the gate believed, to every team or to this one alone (`team`): announced once,
    /// ever (its id is kept before it is told).
    mutating func saidHeard(_ said: HuntSaid, id: UInt64, sent: Date, team: String? = nil) -> [Effect] {
        guard let file = huntBook.file else { return [] }
        var word = huntBook.word ?? HuntWord(hunt: file.id)
        guard !word.said.contains(where: { $0.id == id && $0.team == team }) else { return [] }
        let entry = HuntWord.Said(id: id, text: said.text, at: sent, team: team)
        word.said.append(entry)
        word.said.sort { $0.id < $1.id }
        if word.said.count > HuntWord.saidLimit { word.said.removeFirst(word.said.count - HuntWord.saidLimit) }
        huntBook.word = word
        return [
            .hunt(.keepWord(word)), .emit(.said(entry, hunt: file.id.rawValue, huntName: file.name)),
            .announce(entry, huntName: file.name),
        ]
    }

    /// A gate that knows what the chest kept: a schedule older than the one kept, or another text under a word's
    /// id, is refused as a replay even after a restart.
    func joinGate(_ file: HuntFile, word: HuntWord?) -> HuntGate {
        var seen = HuntGate.Seen()
        if let word {
            var organiser = HuntGate.Seen.Sender()
            organiser.schedule = word.schedule?.id
            let toAll = word.said.filter { $0.team == nil }
            organiser.said = toAll.isEmpty ? nil : Dictionary(toAll.map { ($0.id, $0.text) }) { $1 }
            seen.senders[HuntEnvelope.organiserSender] = organiser
        }
        return HuntGate(hunt: file, seen: seen)
    }
}

/// Why the hunt's window keeps a page closed.
enum HuntWindowHold: Hashable, Sendable {
    case beforeStart(Date)
    /// A format 6 page whose start key has not arrived, whatever the clock says.
    case startKey
    case afterEnd(Date)
}
