import struct FoundationEssentials.Date

extension KeyRequest {
    /// The guess the secret was made of, for a request that tries one (not a cell's).
    var guess: Guess? { pin.map(Guess.pin) ?? answer.map(Guess.answer) }
}

extension Engine {
    /// Tries a PIN for a client. The attempt is counted as wrong and that count written durably to the chest's
    /// ledger (`.recordAttempts`) before any comparison; only then is it compared, off the loop (`.checkPIN` for
    /// format 1 hashes, `.deriveKey` for format 2 slots). A set that needs the PIN and a place together keeps the
    /// PIN instead, uncounted: it is tried with each new cell (docs/DESIGN.md "Sealed pages").
    mutating func attemptPIN(_ id: MessageID, page: Int?, pin: String, for client: ClientID, now: Now) -> [Effect] {
        func answer(_ outcome: PINOutcome) -> [Effect] { [.reply(client, .pin(outcome))] }
        func fail(_ why: String) -> [Effect] { answer(.failed(why)) }
        guard var stored = entries[id] else { return fail("no message \(id.short) in the chest") }
        guard !stored.sentByYou else { return fail("you sent this message: its locks stay shut for you") }
        let sealed = stored.message.version >= 2
        guard PINAttempts.isWellFormed(pin, maximumDigits: sealed ? PINAttempts.maximumSealedDigits : 4) else {
            return fail(
                sealed
                    ? "a PIN is 4 to \(PINAttempts.maximumSealedDigits) digits, \"\(pin)\" is not"
                    : MessageFormatError.pinNotFourDigits(pin).description)
        }
        if let page, !stored.message.pages.indices.contains(page - 1) {
            return fail("message \(id.short) has no page \(page); it has \(stored.message.pages.count)")
        }
        if awaitsStartKey(stored) { return fail(Self.beforeStartKey("PIN")) }
        let hashes = pendingPINHashes(stored, page: page)
        let (slots, withPlace) = pendingSealedPINs(stored, page: page)
        guard !hashes.isEmpty || !slots.isEmpty || !withPlace.isEmpty else {
            return fail(page.map { "page \($0) has no PIN lock waiting" } ?? "no PIN lock of this message is waiting")
        }
        var effects: [Effect] = []
        if !withPlace.isEmpty {
            for slot in withPlace {
                stored.state.seal.keptPINs[String(slot.page)] = pin
                stored.state.seal.tried[LockKey(page: slot.page, set: slot.set, kind: .location)] = nil
            }
            entries[id] = stored
            effects.append(.persist(id, stored.state))
            for slot in withPlace {
                fileKeptCells(for: LockRef(id: id, key: LockKey(page: slot.page, set: slot.set, kind: .location)))
            }
            effects += dispatchCell(now)
            if hashes.isEmpty && slots.isEmpty { return effects + answer(.kept) }
        }
        return effects + counted(.pin(pin), id, hashes: hashes, slots: slots, for: client, now: now)
    }

    /// Tries an answer for a client (`chest answer`): normalised, then counted, recorded and compared exactly as a
    /// PIN is, in the same count (docs/FORMAT.md "Answer locks").
    /// A set that needs the answer and a place together keeps the answer instead, uncounted, as a PIN with a place.
    mutating func attemptAnswer(_ id: MessageID, page: Int?, text: String, for client: ClientID, now: Now) -> [Effect] {
        func fail(_ why: String) -> [Effect] { [.reply(client, .answer(.failed(why)))] }
        guard var stored = entries[id] else { return fail("no message \(id.short) in the chest") }
        guard !stored.sentByYou else { return fail("you sent this message: its locks stay shut for you") }
        let answer = AnswerText.normalised(text)
        guard !answer.isEmpty else { return fail("the answer is empty") }
        guard text.unicodeScalars.count <= AnswerText.maximumLength else {
            return fail(
                "an answer is at most \(AnswerText.maximumLength) characters; this one has \(text.unicodeScalars.count)"
            )
        }
        // No answer holds one (compose refuses it), so such a text is a mistake or an attack on the terminal, never
        // an attempt: refused before it is counted (docs/SECURITY.md "What an answer is worth").
        if let control = AnswerText.control(in: text) {
            return fail("the answer holds the control character \(control), which no answer has; type it as plain text")
        }
        if let page, !stored.message.pages.indices.contains(page - 1) {
            return fail("message \(id.short) has no page \(page); it has \(stored.message.pages.count)")
        }
        if awaitsStartKey(stored) { return fail(Self.beforeStartKey("answer")) }
        let waiting = pendingAnswers(stored, page: page)
        guard !waiting.isEmpty else {
            return fail(
                page.map { "page \($0) has no answer lock waiting" } ?? "no answer lock of this message is waiting")
        }
        let withPlace = waiting.filter {
            stored.message.pages[$0.page - 1][$0.set].contains { $0.kind == .location && $0.isSecret }
        }
        let slots = waiting.filter { !withPlace.contains($0) }
        var effects: [Effect] = []
        if !withPlace.isEmpty {
            for slot in withPlace {
                stored.state.seal.keptAnswers = (stored.state.seal.keptAnswers ?? [:]).merging([
                    String(slot.page): answer
                ]) { $1 }
                stored.state.seal.tried[LockKey(page: slot.page, set: slot.set, kind: .location)] = nil
            }
            entries[id] = stored
            effects.append(.persist(id, stored.state))
            for slot in withPlace {
                fileKeptCells(for: LockRef(id: id, key: LockKey(page: slot.page, set: slot.set, kind: .location)))
            }
            effects += dispatchCell(now)
            if slots.isEmpty { return effects + [.reply(client, .answer(.kept))] }
        }
        return effects + counted(.answer(answer), id, hashes: [:], slots: slots, for: client, now: now)
    }

    /// Why a guess at a format 6 page is refused, uncounted, before the start key arrived: nothing can tell it right
    /// yet (docs/HUNTS.md "The start key").
    static func beforeStartKey(_ noun: String) -> String {
        "the hunt has not started: its pages open only with the organiser's start key, which has not arrived; the \(noun) was neither counted nor compared: enter it again after the start"
    }

    /// A guess against the message's one count: refused while a wait lasts, free when it was tried before, else
    /// counted as wrong, durably, before any comparison.
    private mutating func counted(
        _ guess: Guess, _ id: MessageID, hashes: [LockKey: String], slots: [SlotRef],
        for client: ClientID, now: Now
    ) -> [Effect] {
        func answer(_ outcome: PINOutcome) -> [Effect] { [.reply(client, guess.reply(outcome))] }
        guard var stored = entries[id] else { return answer(.failed("no message \(id.short) in the chest")) }
        let trusted = clock.trustedTime(now)
        if let until = stored.state.pin.refusedUntil, until > trusted {
            return answer(.refused(until: until.addingTimeInterval(clock.correction(now))))
        }
        if stored.state.pin.tried.contains(guess.recorded) { return answer(.alreadyTried) }
        guard stored.state.pin.pending == nil, pinClients[id] == nil else {
            return answer(
                .failed(
                    "another \(guess.pin == nil ? "answer" : "PIN") attempt on this message is being checked; try again"
                ))
        }
        // Counted as wrong, durably, before the comparison: killing the daemon mid-attempt still costs one. The
        // ledger is the one durable record of the count: the message's state is written when the attempt concludes,
        // so a ledger that cannot be written leaves nothing behind to undo (docs/DESIGN.md "Lock rules").
        stored.state.pin.wrong += 1
        stored.state.pin.pending = guess.recorded
        entries[id] = stored
        pinClients[id] = client
        seal.attempts[id] = SealBook.Attempt(guess: guess, client: client, hashes: hashes, slots: slots)
        return [.recordAttempts(id, stored.state.pin)]
    }

    /// The ledger holds the attempt's count: compare now. Or it could not be written: the attempt is refused
    /// uncompared, so no guess is ever free.
    mutating func attemptsRecorded(_ id: MessageID, _ outcome: WriteOutcome, now: Now) -> [Effect] {
        guard var attempt = seal.attempts[id], !attempt.recorded else { return [] }
        guard let stored = entries[id] else {
            seal.attempts[id] = nil
            return []
        }
        if case let .failed(failure) = outcome {
            seal.attempts[id] = nil
            let client = pinClients.removeValue(forKey: id)
            var undone = stored
            undone.state.pin.wrong -= 1
            undone.state.pin.pending = nil
            entries[id] = undone
            let noun = attempt.guess.pin == nil ? "answer" : "PIN"
            let why =
                "cannot record the attempt durably (\(failure)); the \(noun) was neither counted nor compared: free some space and enter it again"
            return client.map { [.reply($0, attempt.guess.reply(.failed(why)))] } ?? []
        }
        seal.ledger[id] = stored.state.pin
        attempt.recorded = true
        if !attempt.hashes.isEmpty, let pin = attempt.guess.pin {
            seal.attempts[id] = nil
            return [.checkPIN(id, pin: pin, hashes: attempt.hashes)]
        }
        attempt.outstanding = Set(attempt.slots)
        seal.attempts[id] = attempt
        var effects: [Effect] = []
        for slot in attempt.slots {
            guard let sealed = stored.message.pages[slot.page - 1].sealed,
                let request = keyRequest(
                    stored, page: slot.page, set: slot.set, of: sealed, pin: attempt.guess.pin,
                    answer: attempt.guess.answer)
            else { continue }
            seal.derivations += 1
            effects.append(.deriveKey(request))
        }
        return effects
    }

    /// The comparison's verdict: right resets the count and latches what it matched; wrong is kept as tried and
    /// may impose a wait.
    mutating func concludeGuess(_ id: MessageID, guess: Guess, matching: [LockKey], now: Now) -> [Effect] {
        guard var stored = entries[id], stored.state.pin.pending == guess.recorded else { return [] }
        let client = pinClients.removeValue(forKey: id)
        func answer(_ outcome: PINOutcome) -> [Effect] { client.map { [.reply($0, guess.reply(outcome))] } ?? [] }
        stored.state.pin.pending = nil
        if !matching.isEmpty {
            stored.state.pin.wrong = 0
            stored.state.pin.refusedUntil = nil
            entries[id] = stored
            seal.ledger[id] = stored.state.pin
            let before = Set(stored.state.openPageNumbers)
            let effects = latch(matching.map { LockRef(id: id, key: $0) }, now: now)
            let opened = (entries[id]?.state.openPageNumbers ?? []).filter { !before.contains($0) }
            // Accepted only once what it opened is on disk.
            return effects.withDependent(answer(.accepted(latched: matching.sorted(), opened: opened)), onPersistOf: id)
                + [.recordAttempts(id, stored.state.pin)]
        }
        stored.state.pin.tried.append(guess.recorded)
        var refusedUntil: Date?
        if let delay = PINAttempts.delay(afterWrong: stored.state.pin.wrong) {
            refusedUntil = clock.trustedTime(now).addingTimeInterval(delay)
            stored.state.pin.refusedUntil = refusedUntil
        }
        entries[id] = stored
        seal.ledger[id] = stored.state.pin
        let shown = refusedUntil?.addingTimeInterval(clock.correction(now))
        return [.persist(id, stored.state), .recordAttempts(id, stored.state.pin)]
            + answer(.wrong(wrong: stored.state.pin.wrong, refusedUntil: shown))
    }

    /// Format 2 sets with a PIN on pages not yet open: those whose key is the PIN alone, and those that need a
    /// place too.
    private func pendingSealedPINs(_ stored: StoredMessage, page: Int?) -> (alone: [SlotRef], withPlace: [SlotRef]) {
        var alone: [SlotRef] = []
        var withPlace: [SlotRef] = []
        for (index, content) in stored.message.pages.enumerated() where content.sealed != nil {
            let number = index + 1
            guard page == nil || page == number, !stored.state.isOpen(page: number) else { continue }
            for set in LockSetName.allCases
            where content[set].contains(.sealedPIN)
                && stored.state.latched[LockKey(page: number, set: set, kind: .pin)] == nil
            {
                let slot = SlotRef(id: stored.id, page: number, set: set)
                if content[set].contains(where: { $0.kind == .location && $0.isSecret }) {
                    withPlace.append(slot)
                } else {
                    alone.append(slot)
                }
            }
        }
        return (alone, withPlace)
    }

    /// Sets with an answer lock on pages not yet open.
    private func pendingAnswers(_ stored: StoredMessage, page: Int?) -> [SlotRef] {
        var slots: [SlotRef] = []
        for (index, content) in stored.message.pages.enumerated() where content.sealed != nil {
            let number = index + 1
            guard page == nil || page == number, !stored.state.isOpen(page: number) else { continue }
            for set in LockSetName.allCases
            where content[set].contains(.answer)
                && stored.state.latched[LockKey(page: number, set: set, kind: .answer)] == nil
            {
                slots.append(SlotRef(id: stored.id, page: number, set: set))
            }
        }
        return slots
    }

    /// The PIN locks still waiting on pages not yet open.
    private func pendingPINHashes(_ stored: StoredMessage, page: Int?) -> [LockKey: String] {
        var hashes: [LockKey: String] = [:]
        for (index, content) in stored.message.pages.enumerated() {
            let number = index + 1
            guard page == nil || page == number, !stored.state.isOpen(page: number) else { continue }
            for set in LockSetName.allCases {
                for case let .pin(hash) in content[set] {
                    let key = LockKey(page: number, set: set, kind: .pin)
                    if stored.state.latched[key] == nil { hashes[key] = hash }
                }
            }
        }
        return hashes
    }
}
