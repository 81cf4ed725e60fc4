import struct FoundationEssentials.Data
import struct FoundationEssentials.Date

/// Page hints (docs/FORMAT.md "Hints", docs/HUNTS.md "Hints"). A hint with a delay is policy, like a time lock: it
/// opens by itself that long after its page became the reader's next goal, the moment the `after` locks of one of its
/// sets all held (the message's arrival for a set without one). A hint without a delay opens when asked
/// (`chest hint`), from the file's key, or in a hunt with the key the organiser's board gives.
extension Engine {
    /// When the page became the reader's next goal: for each set whose `after` locks all hold, the latest of the
    /// moments their pages opened (never before the message arrived); the earliest such set. Nil while no set's chain
    /// is satisfied, or once the page is open.
    func goalSince(_ stored: StoredMessage, page number: Int) -> Date? {
        guard !stored.state.isOpen(page: number) else { return nil }
        let page = stored.message.pages[number - 1]
        let sets = LockSetName.allCases.filter { !page[$0].isEmpty }
        guard !sets.isEmpty else { return stored.state.ingestedAt }
        return sets.compactMap { set -> Date? in
            var since = stored.state.ingestedAt
            for case let .after(link) in page[set] {
                guard let opened = linked(link, of: stored)?.state.openPages.first(where: { $0.page == link.page })
                else {
                    return nil
                }
                since = max(since, opened.at)
            }
            return since
        }.min()
    }

    /// When a hint with a delay opens by itself, once its page is the next goal.
    func hintDue(_ stored: StoredMessage, page number: Int, hint: PageHint) -> Date? {
        guard let after = hint.after, hint.key != nil else { return nil }
        return goalSince(stored, page: number)?.addingTimeInterval(Double(after))
    }

    /// Opens the hints whose delay has passed (by the clock time locks follow), and aims the wake-up at the next one.
    /// Looked at when time passes and when something was saved (a page opened makes another the next goal).
    mutating func hintsDue(_ now: Now, after input: Input, _ effects: [Effect]) -> [Effect] {
        switch input {
        case .tick, .loaded, .arrived, .hintOpened: break
        default: guard effects.contains(where: { if case .persist = $0 { true } else { false } }) else { return [] }
        }
        let trusted = clock.trustedTime(now)
        var opening: [Effect] = []
        for id in hinted.sorted() {
            guard let stored = entries[id] else { continue }
            for (index, page) in stored.message.pages.enumerated() where !page.hints.isEmpty {
                for (hintIndex, hint) in page.hints.enumerated() {
                    let ref = HintRef(id: stored.id, page: index + 1, hint: hintIndex + 1)
                    guard stored.state.openHint(page: ref.page, hint: ref.hint) == nil, hintsOpening[ref] == nil,
                        let due = hintDue(stored, page: ref.page, hint: hint), due <= trusted, let key = hint.key
                    else { continue }
                    opening += openHint(stored, ref, key: key, fromOrganiser: false, client: nil)
                }
            }
        }
        return opening + rescheduleWake(now)
    }

    /// The next instant a hint opens by itself, by the trusted clock, after `trusted`.
    func nextHintDue(after trusted: Date) -> Date? {
        var next: Date?
        for id in hinted {
            guard let stored = entries[id] else { continue }
            for (index, page) in stored.message.pages.enumerated() where !page.hints.isEmpty {
                for (hintIndex, hint) in page.hints.enumerated()
                where stored.state.openHint(page: index + 1, hint: hintIndex + 1) == nil {
                    guard let due = hintDue(stored, page: index + 1, hint: hint), due > trusted else { continue }
                    next = min(next ?? due, due)
                }
            }
        }
        return next
    }

    /// Asks the daemon to try a key on a hint; a client waits for the outcome.
    mutating func openHint(
        _ stored: StoredMessage, _ ref: HintRef, key: [UInt8], fromOrganiser: Bool, client: ClientID?,
        charged: Int? = nil
    ) -> [Effect] {
        let hint = stored.message.pages[ref.page - 1].hints[ref.hint - 1]
        let first = hintsOpening[ref] == nil
        hintsOpening[ref, default: []] += client.map { [$0] } ?? []
        guard first || fromOrganiser else { return [] }
        return [
            .openHint(
                HintOpening(
                    id: stored.id, page: ref.page, hint: ref.hint, key: key, ciphertext: hint.ciphertext,
                    version: stored.message.version, fromOrganiser: fromOrganiser, charged: charged,
                    sealedID: stored.message.id))
        ]
    }

    /// The daemon tried a key: the hint is kept open in the message's state, then told; a key that opens nothing is
    /// a damaged file (the file's key) or a key not meant for it (the board's, counted).
    mutating func hintOpened(_ opening: HintOpening, text: String?, now: Now) -> [Effect] {
        let ref = opening.ref
        let clients = hintsOpening.removeValue(forKey: ref) ?? []
        guard var stored = entries[opening.id], ref.page <= stored.message.pages.count,
            ref.hint <= stored.message.pages[ref.page - 1].hints.count
        else {
            return clients.map { .reply($0, .failure("the message is no longer in the chest")) }
        }
        let hint = stored.message.pages[ref.page - 1].hints[ref.hint - 1]
        // What the board charged, when it said: a hunt's delayed hint it gave free costs nothing (docs/HUNTS.md "Hints").
        let cost = opening.charged ?? hint.cost
        guard let text else {
            if opening.fromOrganiser { huntBook.hintKeysRefused += 1 }
            let why =
                opening.fromOrganiser
                ? "the key the organiser gave does not open hint \(ref.hint) of page \(ref.page); it is ignored"
                : "hint \(ref.hint) of page \(ref.page) does not open with the key in its file: the file is damaged; ask its sender for it again"
            return clients.map { .reply($0, .failure(why)) }
        }
        let title = stored.message.title
        if let open = stored.state.openHint(page: ref.page, hint: ref.hint) {
            return clients.map {
                .reply(
                    $0,
                    .hint(
                        HintAnswer(
                            id: stored.id, title: title, page: ref.page, hint: ref.hint,
                            outcome: .opened, text: open.text, cost: open.cost ?? hint.cost)))
            }
        }
        stored.state.hints.append(
            OpenHint(page: ref.page, hint: ref.hint, at: now.wall, text: text, cost: opening.charged))
        entries[stored.id] = stored
        let note = HintNote(
            id: stored.id, title: title, page: ref.page, hint: ref.hint, text: text, cost: cost, at: now.wall)
        var then: [Effect] = [.emit(.hint(note)), .notifyHint(note)]
        then += clients.map {
            .reply(
                $0,
                .hint(
                    HintAnswer(
                        id: stored.id, title: title, page: ref.page, hint: ref.hint,
                        outcome: .opened, text: text, cost: cost)))
        }
        return [.persist(stored.id, stored.state, then: then)]
    }

    /// A hint's key the organiser's board gave this team, believed by the gate and opened from its sealed box by the
    /// link (nil when it was not sealed to this reader): kept (`<chest>/hint-keys.json`) and tried on the hint.
    mutating func hintKeyHeard(_ envelope: HuntEnvelope, topic: String, signatureValid: Bool, key: [UInt8]?) -> [Effect]
    {
        guard var gate = huntBook.gate else { return [] }
        let verdict = gate.admit(envelope, topic: topic, signatureValid: signatureValid)
        huntBook.gate = gate
        if case let .refused(refusal) = verdict { return [.ignored(.refused(refusal), topic: topic)] }
        guard case let .hint(given) = envelope.body, given.team == huntBook.file?.team?.rawValue,
            let id = MessageID(given.message)
        else { return [] }
        guard let key, key.count == SealedPage.keyBytes else {
            huntBook.hintKeysRefused += 1
            return [.ignored(.hintKeyNotForThisReader, topic: topic)]
        }
        let ref = HintRef(id: id, page: given.page, hint: given.hint)
        var effects: [Effect] = []
        let encoded = Data(key).base64EncodedString()
        if huntBook.hintKeys[ref.key] != encoded {
            huntBook.hintKeys[ref.key] = encoded
            effects.append(.hunt(.keepHintKeys(huntBook.hintKeys)))
        }
        // The board named this ID: a message of the hunt, which another key's copy in the chest only claims.
        effects += setAsideHuntClaims(of: [id])
        guard let stored = huntMessage(id) else { return effects }
        return effects + tryHintKeys(of: stored.id, only: ref, charged: given.cost)
    }

    /// The hint keys kept from an earlier run, read before the broker is reached.
    mutating func hintKeysRestored(_ keys: [String: String]) -> [Effect] {
        huntBook.hintKeys.merge(keys) { current, _ in current }
        let named = Set(huntBook.hintKeys.keys.compactMap(HintRef.init(key:)).map(\.id))
        return setAsideHuntClaims(of: named)
            + named.sorted().compactMap { huntMessage($0)?.id }.flatMap { tryHintKeys(of: $0) }
    }

    /// Tries the board's keys on the hints still closed of the message with this chest ID (a message may arrive
    /// after its key). The board names the hunt's messages by the ID sealed in them; only the organiser's are the
    /// hunt's.
    mutating func tryHintKeys(of id: MessageID, only: HintRef? = nil, charged: Int? = nil) -> [Effect] {
        guard let stored = entries[id], !stored.sentByYou, isHuntMessage(stored) else { return [] }
        var effects: [Effect] = []
        for (key, value) in huntBook.hintKeys.sorted(by: { $0.key < $1.key }) {
            guard let heard = HintRef(key: key), heard.id == stored.message.id, only == nil || only == heard,
                (1...stored.message.pages.count).contains(heard.page),
                stored.message.pages[heard.page - 1].hints.indices.contains(heard.hint - 1),
                stored.state.openHint(page: heard.page, hint: heard.hint) == nil,
                let bytes = Data(base64Encoded: value)
            else { continue }
            let ref = HintRef(id: stored.id, page: heard.page, hint: heard.hint)
            effects += openHint(stored, ref, key: [UInt8](bytes), fromOrganiser: true, client: nil, charged: charged)
        }
        return effects
    }

    /// The hints of a page as `read` shows them.
    func hintReports(_ stored: StoredMessage, page number: Int, now: Now) -> [HintReport]? {
        let hints = stored.message.pages[number - 1].hints
        guard !hints.isEmpty else { return nil }
        return hints.enumerated().map { index, hint in
            let open = stored.state.openHint(page: number, hint: index + 1)
            return HintReport(
                number: index + 1, open: open != nil, text: open?.text, openedAt: open?.at,
                cost: open?.cost ?? hint.cost,
                opensAt: open == nil ? hintDue(stored, page: number, hint: hint) : nil, after: hint.after,
                byOrganiser: hint.key == nil)
        }
    }
}

extension Engine.Input {
    /// The clocks an input carries, when it carries them.
    var now: Now? {
        switch self {
        case let .loaded(_, _, now), let .arrived(_, now), let .changed(_, _, now), let .request(_, _, now),
            let .fix(_, now),
            let .receiver(_, now), let .tick(now), let .weatherFetched(_, now), let .weatherFailed(_, _, _, now),
            let .pinChecked(_, _, _, now), let .keyDerived(_, _, now, _), let .attemptsRecorded(_, _, now),
            let .hunt(_, now),
            let .hintOpened(_, _, now):
            now
        default: nil
        }
    }
}
