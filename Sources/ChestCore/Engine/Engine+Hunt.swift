import struct FoundationEssentials.Data
import struct FoundationEssentials.Date

/// The hunt this chest plays in (docs/HUNTS.md): the engine decides which receipts are owed, when the team's status
/// is worth sending, the sessions that order statuses and wills, and which releases to keep; chestd's `HuntLink`
/// carries it out (the MQTT client, the outbox, the signatures) and reports back as `HuntNews`.
extension Engine {
    /// The hunt link, for `status`: nil when no hunt is joined.
    package var hunt: HuntLinkStatus? { huntBook.report }

    mutating func huntNews(_ news: HuntNews, now: Now) -> [Effect] {
        switch news {
        case let .joined(file, ledger, releases, outbox, word):
            return join(file, ledger: ledger, releases: releases, outbox: outbox, word: word, now: now)
        case .connected:
            huntBook.connected = true
            huntBook.problem = nil
            // A new session restates the status in force, under this session's ids.
            return huntBook.lastStatus.map { [.hunt(.postStatus(huntBook.post($0)))] } ?? []
        case let .refused(why):
            huntBook.connected = false
            huntBook.problem = why
        case let .lost(why):
            huntBook.connected = false
            huntBook.problem = why
            // The broker published (or will publish) this session's will: the next connection is a new session.
            return newSession(now: now) + [.hunt(.setWill(huntBook.will))]
        case let .outbox(count):
            huntBook.outbox = count
        case .malformed:
            huntBook.gate?.countMalformed()
        case let .heard(envelope, topic, signatureValid):
            return heard(envelope, topic: topic, signatureValid: signatureValid, now: now)
        case let .sealedKey(envelope, topic, signatureValid, key):
            if case .start = envelope.body {
                return startKeyHeard(envelope, topic: topic, signatureValid: signatureValid, key: key, now: now)
            }
            if case .told = envelope.body {
                return toldHeard(envelope, topic: topic, signatureValid: signatureValid, opened: key)
            }
            return hintKeyHeard(envelope, topic: topic, signatureValid: signatureValid, key: key)
        case let .hintKeysKept(keys):
            return hintKeysRestored(keys)
        case let .receiptPosted(link, failure):
            huntBook.posting.remove(link)
            guard failure == nil, var ledger = huntBook.ledger else { return [] }
            ledger.sent.insert(link)
            huntBook.ledger = ledger
            return [.hunt(.keepLedger(ledger))]
        }
        return []
    }

    /// A join file read (again): another hunt replaces the link; the same one changes nothing.
    private mutating func join(
        _ file: HuntFile?, ledger: HuntReceiptLedger?, releases: [String: ReleaseKey], outbox: Int,
        word: HuntWord?, now: Now
    ) -> [Effect] {
        guard file != huntBook.file else { return [] }
        var effects: [Effect] = huntBook.isJoined ? [.hunt(.disconnect)] : []
        var book = HuntBook()
        book.chestLoaded = huntBook.chestLoaded
        book.session = huntBook.session
        // Pages an earlier hunt's window kept closed are judged again under this one's (or none).
        book.heldForStart = huntBook.heldForStart.union(huntBook.heldAfterEnd)
        huntBook = book
        guard let file else { return effects + retryHeldBack(now: now) + rescheduleWake(now) }
        huntBook.file = file
        huntBook.word = word?.hunt == file.id ? word : nil
        huntBook.gate = joinGate(file, word: huntBook.word)
        huntBook.outbox = outbox
        // Joining starts now when the chest kept no ledger of this hunt: the moment the catch-up counts from.
        huntBook.ledger = ledger?.hunt == file.id ? ledger : HuntReceiptLedger(hunt: file.id, since: now.wall)
        huntBook.session = max(huntBook.session, huntBook.ledger?.session ?? 0)
        effects += newSession(now: now)
        effects.append(.hunt(.connect(file, will: huntBook.will)))
        for (name, key) in releases.sorted(by: { $0.key < $1.key }) {
            huntBook.releases[name] = key
            effects += released(name, key: key, now: now)
        }
        return effects + setAsideHuntClaims() + huntCatchUp() + huntStatus() + retryHeldBack(now: now)
            + rescheduleWake(now)
    }

    /// Begins a session above every earlier one, kept in the ledger before any status of it is sent.
    private mutating func newSession(now: Now) -> [Effect] {
        huntBook.newSession(now: now.wall)
        guard var ledger = huntBook.ledger else { return [] }
        ledger.session = huntBook.session
        huntBook.ledger = ledger
        return [.hunt(.keepLedger(ledger))]
    }

    /// An envelope from the broker: only the organiser's releases, schedule and words, believed by the gate,
    /// matter to a team.
    private mutating func heard(_ envelope: HuntEnvelope, topic: String, signatureValid: Bool, now: Now) -> [Effect] {
        guard var gate = huntBook.gate else { return [] }
        let verdict = gate.admit(envelope, topic: topic, signatureValid: signatureValid)
        huntBook.gate = gate
        if case let .refused(refusal) = verdict { return [.ignored(.refused(refusal), topic: topic)] }
        let release: HuntRelease
        switch envelope.body {
        case let .schedule(schedule): return scheduleHeard(schedule, id: envelope.id, now: now)
        case let .said(said): return saidHeard(said, id: envelope.id, sent: envelope.sent)
        case let .release(heard): release = heard
        case let .verdict(verdict):
            // Told as a word to this team alone (docs/HUNTS.md "Missions"): chest watch, nav, a notification.
            guard let team = huntBook.file?.team?.rawValue, verdict.team == team else { return [] }
            return saidHeard(HuntSaid(text: verdict.sentence), id: envelope.id, sent: envelope.sent, team: team)
        case .receipt, .status, .hintRequest, .hint, .adjust, .start, .ask, .told, .submit: return []
        }
        return believe(release, now: now)
    }

    /// A release the gate believed: kept, and every page waiting for it tried.
    private mutating func believe(_ release: HuntRelease, now: Now) -> [Effect] {
        var effects: [Effect] = []
        if huntBook.releases[release.name] != release.key {
            huntBook.releases[release.name] = release.key
            effects.append(.hunt(.keepReleases(huntBook.releases)))
        }
        return effects + released(release.name, key: release.key, now: now)
    }

    /// The start key sealed to this team at its own start (docs/HUNTS.md "A clock for each team"): believed as the
    /// start release when the gate believes the envelope and the box opened with the team's key.
    private mutating func startKeyHeard(
        _ envelope: HuntEnvelope, topic: String, signatureValid: Bool, key: [UInt8]?, now: Now
    ) -> [Effect] {
        guard var gate = huntBook.gate else { return [] }
        let verdict = gate.admit(envelope, topic: topic, signatureValid: signatureValid)
        huntBook.gate = gate
        if case let .refused(refusal) = verdict { return [.ignored(.refused(refusal), topic: topic)] }
        guard case let .start(start) = envelope.body, start.team == huntBook.file?.team?.rawValue else { return [] }
        guard let key, let releaseKey = ReleaseKey(Data(key).base64EncodedString()) else {
            huntBook.startKeysRefused += 1
            return [.ignored(.startKeyNotForThisTeam, topic: topic)]
        }
        return believe(HuntRelease(name: HuntRelease.startName, key: releaseKey), now: now)
    }

    /// The chest is loaded: the receipts owed since joining (a kill between saving a page open and putting its
    /// receipt in the outbox), and the team's status.
    mutating func huntChestLoaded() -> [Effect] {
        huntBook.chestLoaded = true
        return setAsideHuntClaims() + huntCatchUp() + huntStatus()
    }

    private mutating func huntCatchUp() -> [Effect] {
        guard huntBook.chestLoaded, let ledger = huntBook.ledger else { return [] }
        return ledger.owed(entries.values.filter(isHuntMessage)).flatMap { huntReceipt($0.0, $0.1, caughtUp: true) }
    }

    /// The receipt of an unlock, when the hunt is owed it and it was not asked for already: only a message of the
    /// hunt's organiser is the hunt's, and its receipt names it by the ID sealed in it, as the board knows it.
    mutating func huntReceipt(_ stored: StoredMessage, _ open: OpenPage, caughtUp: Bool = false) -> [Effect] {
        guard let file = huntBook.file, let ledger = huntBook.ledger, isHuntMessage(stored), ledger.owes(stored, open),
            let evidence = open.evidence, let signature = stored.message.seal?.signature
        else { return [] }
        let link = PageLink(message: stored.message.id, page: open.page)
        guard huntBook.posting.insert(link).inserted else { return [] }
        let receipt = UnlockReceipt(
            message: stored.message.id, messageSignature: Data(signature).base64EncodedString(),
            title: stored.message.title, page: open.page, set: open.set, openedAt: open.at,
            evidence: evidence, reader: "")
        return [
            .hunt(
                .postReceipt(
                    HuntEnvelope.shareable(receipt, sharePositions: file.sharePositions),
                    proofKey: open.proofKey, link: link, caughtUp: caughtUp))
        ]
    }

    /// The team's status, when it changed since the last one sent (retained on the broker; the board shows it).
    mutating func huntStatus() -> [Effect] {
        guard huntBook.isJoined, huntBook.chestLoaded else { return [] }
        let status = teamStatus
        guard status != huntBook.lastStatus else { return [] }
        huntBook.lastStatus = status
        return [.hunt(.postStatus(huntBook.post(status)))]
    }

    /// Whether this input may have changed what the team's status shows; a fix only when its mode or trust did,
    /// or it opened something, so that a fix costs no count of every page.
    func mayChangeTeamStatus(_ input: Input, _ effects: [Effect]) -> Bool {
        guard huntBook.isJoined else { return false }
        guard case .fix = input else { return true }
        let last = huntBook.lastStatus
        return lastFix?.mode.rawValue != last?.fixMode || (lastFix == nil ? nil : trust.level) != last?.trust
            || effects.contains { if case .persist = $0 { true } else { false } }
    }

    /// What the organiser's board shows of this team.
    var teamStatus: TeamStatus {
        let pages = entries.values.reduce(0) { $0 + $1.state.openPages.count { $0.set != nil } }
        return TeamStatus(
            online: true, pagesOpen: pages, trust: lastFix == nil ? nil : trust.level,
            fixMode: lastFix?.mode.rawValue)
    }
}
