import FoundationEssentials
import Glibc

/// One row of `chest list --json` (docs/DESIGN.md "Commands and output").
package struct ListItem: Hashable, Sendable, Codable {
    package var id: MessageID
    package var title: String
    package var from: String
    package var chest: ChestKind
    package var pages: Int
    package var openPages: [Int]
    package var state: Openness
    package var sentByYou: Bool
    package var receivedAt: Date
    /// The sender's Ed25519 public key (base64), which sealed the message: what the name cannot fake.
    package var senderKey: String?
    /// The known sender whose name this sender's reads as, under another key (docs/SECURITY.md "Known senders"):
    /// filled by `chest`, which holds the user's known senders, never by chestd; absent when the name is no lookalike.
    package var lookalikeOf: String?
    /// The ID sealed in the message's file, when the chest files it under another (`id`): another sender's message
    /// had that ID when it came (docs/SECURITY.md "Round five (issue 61)"). Absent otherwise.
    package var messageID: MessageID?
    /// The chest IDs of the other senders' messages in the chest with the same ID sealed in them: one of them is a
    /// copy re-signed by another key. Absent when there is none.
    package var sameID: [MessageID]?
}

/// Everything `chest read` shows about one message.
package struct ReadReport: Hashable, Sendable, Codable {
    package var id: MessageID
    package var title: String
    package var from: String
    package var chest: ChestKind
    package var state: Openness
    package var sentByYou: Bool
    package var pages: [PageReport]
    /// The sender's Ed25519 public key (base64), which sealed the message.
    package var senderKey: String?
    /// The organiser asked for a hardware receiver (`compose --require hardware`): with the current source, said
    /// whether or not there is a fix, so the reader knows before walking anywhere.
    package var requiresHardware: Bool = false
    /// The fixes' source and trust now, "gpsd not connected" or "no fix yet" included.
    package var receiver: String?
    /// A message of the joined hunt with a start or an end: its pages open only between them (docs/HUNTS.md "The
    /// hunt's start and end"); with a limit, the team's own start and end (docs/HUNTS.md "A clock for each team");
    /// absent otherwise.
    package var huntStarts: Date?
    package var huntEnds: Date?
    /// A format 6 message of the hunt whose start key has not arrived: nothing of it opens until the organiser
    /// publishes it (docs/HUNTS.md "The start key"); absent otherwise.
    package var awaitsStartKey: Bool?
    /// As `ListItem`'s: the ID sealed in the file when the chest ID is another, and the other senders' messages with
    /// that ID.
    package var messageID: MessageID?
    package var sameID: [MessageID]?
}

package struct PageReport: Hashable, Sendable, Codable {
    package var number: Int
    package var open: Bool
    /// The text, only once the page is open.
    package var text: String?
    package var openedBy: LockSetName?
    package var openedAt: Date?
    /// For a page a place opened: when the place was reached (its third confirming fix).
    package var reachedAt: Date?
    /// For a page still locked: each non-empty set and its locks.
    package var sets: [SetReport]
    /// For an open page: what chestd saw as it opened, for `chest receipt`.
    package var evidence: UnlockEvidence?
    /// The sender's signature of the message, base64: a receipt names the message by it.
    package var messageSignature: String?
    /// How well the file protects the page from whoever has it: its weakest non-empty set.
    package var protection: Protection = .unsealed
    /// For an open format 2 page: its proof key (base64), for the proof of opening in `chest receipt`.
    package var proofKey: String?
    /// For an open page: the files it carries, and the key of their ciphertext for `chest read --save`.
    package var attachments: [Attachment]?
    package var attachmentsKey: String?
    /// The page's hints, in order (docs/FORMAT.md "Hints"); absent when it has none.
    package var hints: [HintReport]?
    /// The page's question, shown open or not (docs/FORMAT.md "Questions, answer locks and points").
    package var question: String?
    /// What the hunt's board credits for the page's proven opening (1 unless the organiser said otherwise; absent
    /// only from an older chestd).
    package var points: Int?
}

package struct SetReport: Hashable, Sendable, Codable {
    package var set: LockSetName
    package var locks: [LockReport]
}

package struct LockReport: Hashable, Sendable, Codable {
    package var type: LockKind
    /// "within 30 m of 48.85837, 2.29448"
    package var condition: String
    package var holds: Bool
    /// Why it does not hold yet.
    package var reason: LockReason?
    /// What it asks for, as values, when the file shows it openly (not a sealed place or a PIN).
    package var target: LockTarget?
}

extension Lock {
    /// What the lock asks for, in a few words.
    package var condition: String {
        switch self {
        case let .location(center, radius):
            "within \(radius.compact) m of \(center.latitude.compact), \(center.longitude.compact)"
        case let .time(date): "from \(ISO8601.string(date))"
        case let .gpsTime(date): "from \(ISO8601.string(date)) by hardware GPS time"
        case .pin, .sealedPIN: "the right PIN"
        case let .sealedLocation(grid):
            grid.area == nil
                ? "at a hidden place: sealed (format 2: the place can be recovered from the file)" : "at a hidden place"
        case let .weather(condition): condition.rawValue
        case let .temperature(bounds): "\(bounds) °C"
        case let .altitude(bounds): "\(bounds) m above sea level"
        case let .after(link): "after page \(link.page) of message \(link.message.short)"
        case let .release(name): "the organiser's release \u{201C}\(name)\u{201D}"
        case .answer: "the right answer"
        }
    }
}

extension Engine {
    package func listItem(_ stored: StoredMessage) -> ListItem {
        let (messageID, sameID) = identityReport(stored)
        return ListItem(
            id: stored.id, title: stored.message.title, from: stored.message.from, chest: stored.chest,
            pages: stored.message.pages.count, openPages: stored.state.openPageNumbers, state: stored.openness,
            sentByYou: stored.sentByYou, receivedAt: stored.state.ingestedAt,
            senderKey: stored.message.seal.map { Data($0.publicKey).base64EncodedString() }, messageID: messageID,
            sameID: sameID)
    }

    /// The ID sealed in the file when the chest ID is another, and the chest IDs of the other senders' messages with
    /// that ID; nil for each when there is none.
    func identityReport(_ stored: StoredMessage) -> (MessageID?, [MessageID]?) {
        let others = entries.all(withID: stored.message.id).map(\.id).filter { $0 != stored.id }
        return (stored.filing == 0 ? nil : stored.message.id, others.isEmpty ? nil : others.sorted())
    }

    /// The messages of one chest, newest first.
    package func list(chest: ChestKind) -> [ListItem] {
        entries.values.filter { $0.chest == chest }
            .sorted { ($0.state.ingestedAt, $0.id) > ($1.state.ingestedAt, $1.id) }
            .map(listItem)
    }

    /// The chest IDs starting with `prefix`; when none does, those of the messages filed under another chest ID whose
    /// own ID does (the ID their sender gave out), so that a chest ID `list` shows always names its own message.
    package func ids(matching prefix: String) -> [MessageID] {
        let prefix = prefix.lowercased()
        let filed = entries.keys.filter { $0.rawValue.hasPrefix(prefix) }.sorted()
        guard filed.isEmpty else { return filed }
        return entries.values.filter { $0.filing != 0 && $0.message.id.rawValue.hasPrefix(prefix) }.map(\.id).sorted()
    }

    package func read(_ id: MessageID, now: Now) -> ReadReport? {
        guard let stored = entries[id] else { return nil }
        var pages = stored.message.pages.enumerated().map { index, page in
            let number = index + 1
            if let open = stored.state.openPages.first(where: { $0.page == number }) {
                return PageReport(
                    number: number, open: true, text: open.content?.text ?? page.text, openedBy: open.set,
                    openedAt: open.at, reachedAt: open.reachedAt, sets: [], evidence: open.evidence,
                    messageSignature: stored.message.seal.map { Data($0.signature).base64EncodedString() },
                    protection: page.protection, proofKey: open.proofKey,
                    attachments: open.content?.attachments, attachmentsKey: open.content?.attachmentsKey)
            }
            let sets = LockSetName.allCases.filter { !page[$0].isEmpty }.map { set in
                SetReport(
                    set: set,
                    locks: page[set].map { lock in
                        let key = LockKey(page: number, set: set, kind: lock.kind)
                        let reason = explain(stored, key: key, lock: lock, now: now)
                        var target = lock.target
                        if case .location = lock { target?.label = page.labels[set] }
                        return LockReport(
                            type: lock.kind, condition: lock.condition, holds: reason == nil, reason: reason,
                            target: target)
                    })
            }
            return PageReport(
                number: number, open: false, text: nil, openedBy: nil, openedAt: nil, sets: sets,
                protection: page.protection)
        }
        for (index, page) in stored.message.pages.enumerated() {
            pages[index].hints = hintReports(stored, page: index + 1, now: now)
            pages[index].question = page.question
            pages[index].points = page.worth
        }
        var report = ReadReport(
            id: id, title: stored.message.title, from: stored.message.from, chest: stored.chest,
            state: stored.openness, sentByYou: stored.sentByYou, pages: pages,
            senderKey: stored.message.seal.map { Data($0.publicKey).base64EncodedString() })
        (report.messageID, report.sameID) = identityReport(stored)
        if let schedule = huntSchedule, !schedule.isEmpty, isHuntMessage(stored) {
            (report.huntStarts, report.huntEnds) = (schedule.starts, schedule.closes)
        }
        if awaitsStartKey(stored) { report.awaitsStartKey = true }
        if stored.message.requiresHardware {
            report.requiresHardware = true
            report.receiver =
                !gps.connected ? "gpsd not connected" : lastFix == nil ? "no fix yet" : trust.trust.description
        }
        return report
    }

    /// A place or altitude whose rule is met, waiting for its confirming fixes: with the receiver's cadence when it
    /// is slow, so that a wait of ten seconds and more says why.
    func confirming(_ ref: LockRef) -> LockReason {
        guard cadence.isSlow, let seconds = cadence.seconds else {
            return .confirming(confirmations(of: ref), of: Self.confirmations)
        }
        return .confirmingEvery(confirmations(of: ref), of: Self.confirmations, seconds: seconds)
    }

    /// Why one lock does not hold yet, or nil when it holds.
    func explain(_ stored: StoredMessage, key: LockKey, lock: Lock, now: Now) -> LockReason? {
        if stored.state.latched[key] != nil { return nil }
        if stored.sentByYou { return .sentByYou }
        let ref = LockRef(id: stored.id, key: key)
        // A lock whose rule is met but which has not latched yet waits for the engine's next look at it.
        switch lock {
        case let .time(instant):
            return LockRule.time(instant, trusted: clock.trustedTime(now), correction: clock.correction(now))
                ?? .opensAt(instant)
        case let .gpsTime(instant):
            return LockRule.gpsTime(instant, gps: hardwareTime(now)) ?? .opensAt(instant)
        case .sealedLocation, .sealedPIN:
            return explainSealed(stored, key: key, lock: lock, now: now)
        case let .release(name):
            return .waitsForRelease(name, arrived: seal.releases[name] != nil)
        case .answer
        where stored.message.pages[key.page - 1][key.set].contains(where: { $0.kind == .location && $0.isSecret }):
            return explainSealed(stored, key: key, lock: lock, now: now)
        case .answer:
            if let until = stored.state.pin.refusedUntil, until > clock.trustedTime(now) {
                return .answerRefused(until: until)
            }
            return .needsAnswer
        case .pin:
            if let until = stored.state.pin.refusedUntil, until > clock.trustedTime(now) {
                return .pinRefused(until: until)
            }
            return .needsPIN
        case let .location(center, radius):
            if let problem = LockRule.fixProblem(lastFix, connected: gps.connected, now: now, life: cadence.maximumGap)
            {
                return problem
            }
            if let problem = LockRule.trust(trust, requiresHardware: stored.message.requiresHardware) { return problem }
            guard let fix = lastFix, let position = fix.position else { return .needsFix }
            return LockRule.location(position, eph: fix.eph, center: center, radius: radius)
                ?? confirming(ref)
        case let .altitude(bounds):
            if let problem = LockRule.fixProblem(lastFix, connected: gps.connected, now: now, life: cadence.maximumGap)
            {
                return problem
            }
            if let problem = LockRule.trust(trust, requiresHardware: stored.message.requiresHardware) { return problem }
            return LockRule.altitude(lastFix?.altitude3D, epv: lastFix?.epv, bounds: bounds)
                ?? confirming(ref)
        case let .weather(condition):
            return LockRule.weather(condition, weatherReading(now: now))
                ?? .weather(current: condition, needs: condition)
        case let .temperature(bounds):
            let reading = weatherReading(now: now)
            return LockRule.temperature(bounds, reading)
                ?? .temperature(current: reading.observation?.temperatureC ?? bounds.min, needs: bounds)
        case let .after(link):
            return afterProblem(link, of: stored)
                ?? .waitsForPage(link, title: linked(link, of: stored)?.message.title ?? "")
        }
    }
}
