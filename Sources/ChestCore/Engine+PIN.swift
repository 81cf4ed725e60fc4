import struct Foundation.Date

/// How a PIN attempt ended.
public enum PINOutcome: Hashable, Sendable, Codable {
    /// The PIN was right: these PIN locks latched, and these pages are open now (maybe none, if other locks wait).
    case accepted(latched: [LockKey], opened: [Int])
    /// Wrong; `wrong` attempts so far, and further attempts are refused until `refusedUntil` if set.
    case wrong(wrong: Int, refusedUntil: Date?)
    /// This wrong PIN was tried before: it costs nothing and opens nothing.
    case alreadyTried
    /// Too many wrong attempts: try again at this time.
    case refused(until: Date)
    case failed(String)

    /// What `chest pin` prints (or its error).
    public var text: String {
        switch self {
        case let .accepted(latched, opened):
            opened.isEmpty
                ? "PIN accepted (\(latched.count) lock\(latched.count == 1 ? "" : "s")); the page still waits for its other locks"
                : "PIN accepted: page\(opened.count == 1 ? "" : "s") \(opened.map(String.init).joined(separator: ", ")) open"
        case let .wrong(wrong, until):
            if let until {
                "wrong PIN (\(wrong) wrong attempts); the next attempt is allowed at \(LockReason.format(until, .current, seconds: true))"
            } else {
                "wrong PIN (\(wrong) of \(PINAttempts.freeAttempts) attempts before a wait)"
            }
        case .alreadyTried: "wrong PIN (already tried; it did not count again)"
        case let .refused(until):
            "too many wrong PINs: the next attempt is allowed at \(LockReason.format(until, .current, seconds: true))"
        case let .failed(why): why
        }
    }
}



extension Engine {
    /// Tries a PIN for a client: counted as wrong durably before the comparison, which happens off the loop
    /// (`.checkPIN`); the client hears the outcome then.
    mutating func attemptPIN(_ id: MessageID, page: Int?, pin: String, for client: ClientID, now: Now) -> [Effect] {
        func answer(_ outcome: PINOutcome) -> [Effect] { [.reply(client, .pin(outcome))] }
        func fail(_ why: String) -> [Effect] { answer(.failed(why)) }
        guard var stored = entries[id] else { return fail("no message \(id.short) in the chest") }
        guard !stored.sentByYou else { return fail("you sent this message: its locks stay shut for you") }
        guard PINAttempts.isWellFormed(pin) else { return fail(MessageFormatError.pinNotFourDigits(pin).description) }
        if let page, !stored.message.pages.indices.contains(page - 1) {
            return fail("message \(id.short) has no page \(page); it has \(stored.message.pages.count)")
        }
        let hashes = pendingPINHashes(stored, page: page)
        guard !hashes.isEmpty else {
            return fail(page.map { "page \($0) has no PIN lock waiting" } ?? "no PIN lock of this message is waiting")
        }
        let trusted = clock.trustedTime(now)
        if let until = stored.state.pin.refusedUntil, until > trusted {
            return answer(.refused(until: until.addingTimeInterval(clock.correction(now))))
        }
        if stored.state.pin.tried.contains(pin) { return answer(.alreadyTried) }
        guard stored.state.pin.pending == nil, pinClients[id] == nil else {
            return fail("another PIN attempt on this message is being checked; try again")
        }
        // Counted as wrong, durably, before the comparison: killing the daemon mid-attempt still costs one.
        stored.state.pin.wrong += 1
        stored.state.pin.pending = pin
        entries[id] = stored
        pinClients[id] = client
        return [.persist(id, stored.state), .checkPIN(id, pin: pin, hashes: hashes)]
    }

    mutating func concludePIN(_ id: MessageID, pin: String, matching: [LockKey], now: Now) -> [Effect] {
        guard var stored = entries[id], stored.state.pin.pending == pin else { return [] }
        let client = pinClients.removeValue(forKey: id)
        func answer(_ outcome: PINOutcome) -> [Effect] { client.map { [.reply($0, .pin(outcome))] } ?? [] }
        stored.state.pin.pending = nil
        if !matching.isEmpty {
            stored.state.pin.wrong = 0
            stored.state.pin.refusedUntil = nil
            entries[id] = stored
            let before = Set(stored.state.openPageNumbers)
            let effects = latch(matching.map { LockRef(id: id, key: $0) }, now: now)
            let opened = (entries[id]?.state.openPageNumbers ?? []).filter { !before.contains($0) }
            return effects + answer(.accepted(latched: matching.sorted(), opened: opened))
        }
        stored.state.pin.tried.append(pin)
        var refusedUntil: Date?
        if let delay = PINAttempts.delay(afterWrong: stored.state.pin.wrong) {
            refusedUntil = clock.trustedTime(now).addingTimeInterval(delay)
            stored.state.pin.refusedUntil = refusedUntil
        }
        entries[id] = stored
        let shown = refusedUntil?.addingTimeInterval(clock.correction(now))
        return [.persist(id, stored.state)] + answer(.wrong(wrong: stored.state.pin.wrong, refusedUntil: shown))
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
