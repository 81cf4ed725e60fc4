import struct FoundationEssentials.Date

/// The evaluation engine: every locked message, every latch, the last fix and weather, and the rules that open
/// pages. It is pure: `handle(_:)` takes one input, changes the state and returns what the caller must do.
package struct Engine: Sendable {
    package internal(set) var entries = MessageTable()
    package internal(set) var lastFix: Fix?
    package private(set) var gps: GPSLink
    package internal(set) var clock = ClockGuard()
    /// The trust level of the fixes and where they come from.
    package internal(set) var trust = TrustAssessor()
    package internal(set) var weather: WeatherObservation?
    /// When and how weather is asked for and how old or far a reading may be (docs/DESIGN.md "Lock rules", "Weather").
    package internal(set) var weatherSchedule: WeatherSchedule
    package internal(set) var weatherHistory = WeatherFetchHistory()
    /// The provider's last error, for `status`.
    package internal(set) var weatherProblem: String?

    var locations = LocationIndex<LockRef>()
    var altitudes: [LockRef: Bounds] = [:]
    var times: [LockRef: Date] = [:]
    /// The time locks that need hardware GPS time (`time=…,gps`); their instants are in `times`.
    var gpsTimes: Set<LockRef> = []
    var weathers: Set<LockRef> = []
    /// Pending `after` locks and the page each waits for (docs/QUEST.md "Chains").
    var afters: [LockRef: PageLink] = [:]
    var streaks: [LockRef: Streak] = [:]
    /// How often the receiver gives an epoch: what a streak's gap and a fix's life are judged against.
    package internal(set) var cadence = ReceiverCadence()
    var lastEmittedEpoch: Double?
    var fixWatch = FixWatch()
    var scheduledWake: Date??
    var scheduledWeatherCheck: Date??
    /// The `watch` connections: an unlock they hear of is delivered.
    package internal(set) var subscribers: Set<ClientID> = []
    /// The most `chest watch` connections at once, below the control server's limit of connections, so that
    /// other requests always find room.
    package static let maximumWatchers = 32
    /// Messages deleted lately, newest last, with their state: what `chest undelete` brings back.
    package internal(set) var recentlyDeleted: [DeletedMessage] = []
    /// Who waits for the PIN attempt being checked on a message.
    var pinClients: [MessageID: ClientID] = [:]
    /// Format 2: cells, derivations, opened contents, PIN attempts (Engine+Seal.swift).
    var seal = SealBook()
    /// Proof keys of pages whose key was recovered, until the page opens (Engine+Proof.swift).
    var proofKeys: [PageLink: String] = [:]
    /// The hunt this chest plays in: link, session, receipts owed, releases (Engine+Hunt.swift).
    var huntBook = HuntBook()
    /// Hints whose key the daemon is trying, and the `chest hint` clients waiting for them (Engine+Hints.swift).
    var hintsOpening: [HintRef: [ClientID]] = [:]
    /// The messages received (not sent by you) with a hint on some page: what `hintsDue` and `nextHintDue` look at on
    /// every tick, so that a chest of thousands of messages without hints is not read through each time
    /// (docs/BENCHMARKS.md "The fix path's CPU"). Kept by `add` and the removal of a message, the only places
    /// a message's pages or sender change.
    var hinted: Set<MessageID> = []
    /// Messages being set aside as claims on the joined hunt's IDs (Engine+HuntClaims.swift), until the daemon says.
    var settingAside: Set<MessageID> = []

    /// Location and altitude locks need this many consecutive qualified fixes (docs/DESIGN.md "Lock rules").
    package static let confirmations = 3

    /// An engine for the gpsd at `gpsServer` (as `status` names it), asking for weather on `weatherSchedule`
    /// (the settings' `weather-max-age` goes in its `maxAge`; a reload changes it through `.settingsRead`).
    package init(gpsServer: String, weatherSchedule: WeatherSchedule = WeatherSchedule()) {
        gps = GPSLink(server: gpsServer)
        self.weatherSchedule = weatherSchedule
    }

    package mutating func handle(_ input: Input) -> [Effect] {
        var effects: [Effect] = []
        switch input {
        case let .loaded(messages, refused, now):
            effects = refused.map { .reject(path: $0.path, reason: $0.reason) }
            entries.reserveCapacity(entries.count + messages.count)
            for stored in messages { effects += add(stored.restarted, announce: false, now: now) }
            effects += undelivered.map(Effect.notify)
            effects += huntChestLoaded()
            effects += rescheduleWake(now)
            effects += planWeather(now)
        case let .arrived(arrivals, now):
            effects = admit(arrivals, now: now)
        case let .changed(change, outcome, now):
            effects = conclude(change, outcome, now: now)
        case let .request(client, request, now):
            effects = answer(request, from: client, now: now)
        case let .clientGone(client):
            subscribers.remove(client)
        case let .fix(fix, now):
            effects = handleFix(fix, now: now)
        case let .gpsLink(connected, server, reason):
            guard gps.connected != connected || gps.server != server else {
                gps.reason = reason
                break
            }
            gps = GPSLink(server: server)
            gps.connected = connected
            gps.reason = reason
            if !connected {
                streaks.removeAll()
                seal.history.breakRun()
                cadence.breakRun()
            }
            effects.append(.emit(.gpsd(connected: connected, server: server, reason: reason)))
        case let .receiver(source, now):
            effects = handleReceiver(source, now: now)
        case let .tick(now):
            effects += fixChecked(now)
            effects += latch(dueTimeLocks(now), now: now)
            effects += latchWeather(now)
            effects += huntWindowTick(now)
            effects += resumeCells(now)
            effects += rescheduleWake(now)
            effects += planWeather(now)
        case let .weatherRestored(observation):
            weather = observation
        case let .weatherFetched(observation, now):
            effects = weatherArrived(observation, now: now)
        case let .weatherFailed(reason, retryAfter, offline, now):
            weatherHistory.failed(at: now.wall, retryAfter: retryAfter, offline: offline)
            weatherProblem = reason
            effects = planWeather(now)
        case let .pinChecked(id, pin, matching, now):
            effects = concludeGuess(id, guess: .pin(pin), matching: matching, now: now)
        case let .persistFailed(id, onDisk, reason, skipped):
            effects = persistFailed(id, onDisk: onDisk, reason: reason, skipped: skipped)
        case let .delivered(id, page):
            effects = markDelivered(id, pages: [page])
        case let .keyDerived(request, result, now, proofKey):
            if let proofKey { keepProofKey(proofKey, of: request, result) }
            effects = keyDerived(request, result, now: now)
        case let .deletedRestored(deleted):
            recentlyDeleted = Array(deleted.filter { entries[$0.stored.id] == nil }.suffix(DeletedMessage.limit)).map {
                deleted in
                DeletedMessage(stored: deleted.stored.restarted, at: deleted.at)
            }
        case let .settingsRead(client, reading):
            if let maxAge = reading.weatherMaximumAge { weatherSchedule.maxAge = maxAge }
            effects = client.map { [.reply($0, .notes(reading.notes))] } ?? []
        case let .settingsDescribed(client, settings):
            effects = [.reply(client, .settings(settings))]
        case let .attemptsRestored(ledger):
            seal.ledger = ledger
        case let .attemptsRecorded(id, outcome, now):
            effects = attemptsRecorded(id, outcome, now: now)
        case let .hunt(news, now):
            effects = huntNews(news, now: now)
        case let .hintOpened(opening, text, now):
            effects = hintOpened(opening, text: text, now: now)
        }
        if let now = input.now { effects += hintsDue(now, after: input, effects) }
        if mayChangeTeamStatus(input, effects) { effects += huntStatus() }
        return effects
    }

    /// The unlocks never delivered, oldest first: replayed to notifiers at start and to the first watcher.
    package var undelivered: [Unlock] {
        entries.values.flatMap { stored in
            stored.state.openPages.filter { !$0.delivered && $0.set != nil }.map { Unlock(stored, $0) }
        }.sorted { ($0.at, $0.id, $0.page) < ($1.at, $1.id, $1.page) }
    }

    /// Records that these pages' unlocks reached someone.
    mutating func markDelivered(_ id: MessageID, pages: [Int]) -> [Effect] {
        guard var stored = entries[id] else { return [] }
        var changed = false
        for index in stored.state.openPages.indices
        where pages.contains(stored.state.openPages[index].page) && !stored.state.openPages[index].delivered {
            stored.state.openPages[index].delivered = true
            changed = true
        }
        guard changed else { return [] }
        entries[id] = stored
        return [.persist(id, stored.state)]
    }

    // MARK: - Messages in and out

    mutating func add(_ stored: StoredMessage, announce: Bool, now: Now) -> [Effect] {
        if let old = entries[stored.id] { unregisterAll(old) }
        var stored = forgettingUnprovenSecrets(stored)
        if let ledger = seal.ledger[stored.id] { stored.state.pin = stored.state.pin.merged(with: ledger) }
        // A PIN pending on disk was in flight when an older chestd stopped: no attempt is now.
        if seal.attempts[stored.id] == nil { stored.state.pin.pending = nil }
        entries[stored.id] = stored
        if !stored.sentByYou && stored.message.pages.contains(where: { !$0.hints.isEmpty }) {
            hinted.insert(stored.id)
        } else {
            hinted.remove(stored.id)
        }
        var effects: [Effect] = announce ? [.emit(.ingested(stored.id, title: stored.message.title))] : []
        effects += openLocklessPages(stored.id, now: now)
        guard !stored.sentByYou else { return effects }
        effects += openCompleted([stored.id], persistAlways: false, now: now)
        register(stored)
        effects += tryReleases(of: stored.id)
        effects += tryHintKeys(of: stored.id)
        let due = stored.message.pages.indices.flatMap { pageIndex in
            LockSetName.allCases.compactMap { set -> LockRef? in
                let ref = LockRef(id: stored.id, key: LockKey(page: pageIndex + 1, set: set, kind: .time))
                return times[ref].map { timeHolds($0, now, ref: ref) } == true ? ref : nil
            }
        }
        let reading = weatherReading(now: now)
        effects += latch(
            due + weathers.filter { $0.id == stored.id && weatherHolds($0, reading) }
                + satisfiedAfters(of: stored.id), now: now)
        return effects
    }

    /// `announce`: the pages were held for the hunt's window and open now, at the start, which is an opening to tell
    /// (an `unlocked` event and a notification, as for a page with locks; issue 59: it was silent). A page open from
    /// the moment its message came in is told by the message's `ingested` event.
    mutating func openLocklessPages(_ id: MessageID, announce: Bool = false, now: Now) -> [Effect] {
        guard var stored = entries[id] else { return [] }
        var lockless = stored.message.pages.indices.map { $0 + 1 }.filter {
            stored.message.pages[$0 - 1].isUnlocked && stored.message.pages[$0 - 1].sealed == nil
                && !stored.state.isOpen(page: $0)
        }
        // docs/HUNTS.md "The hunt's start and end": a hunt's page without locks opens only while the hunt is on.
        if let first = lockless.first, let hold = huntWindowKeepsClosed(stored, page: first, set: nil, now: now) {
            holdBack(id, hold)
            lockless = []
        }
        guard !lockless.isEmpty else { return [] }
        let opened = lockless.map { OpenPage(page: $0, set: nil, at: now.wall, delivered: !announce) }
        stored.state.openPages += opened
        entries[id] = stored
        guard announce else { return [.persist(id, stored.state)] }
        var told = opened.flatMap { page -> [Effect] in
            let unlock = Unlock(stored, page)
            return [.emit(.unlocked(unlock)), .notify(unlock)]
        }
        if !subscribers.isEmpty { told += markDelivered(id, pages: opened.map(\.page)) }
        return [.persist(id, stored.state, then: told)]
    }

    /// Files every lock that can still matter (on a page not yet open, not yet latched) with its evaluator.
    mutating func register(_ stored: StoredMessage) {
        for (pageIndex, page) in stored.message.pages.enumerated() where !stored.state.isOpen(page: pageIndex + 1) {
            for set in LockSetName.allCases {
                for lock in page[set] {
                    let key = LockKey(page: pageIndex + 1, set: set, kind: lock.kind)
                    guard stored.state.latched[key] == nil else { continue }
                    let ref = LockRef(id: stored.id, key: key)
                    switch lock {
                    case let .location(center, radius): locations.insert(ref, center: center, radius: radius)
                    case let .altitude(bounds): altitudes[ref] = bounds
                    case let .time(date): times[ref] = date
                    case let .gpsTime(date):
                        times[ref] = date
                        gpsTimes.insert(ref)
                    case .weather, .temperature: weathers.insert(ref)
                    case let .after(link): afters[ref] = link
                    case .pin, .sealedPIN, .release, .answer: break
                    case let .sealedLocation(grid):
                        let withPIN = page[set].contains(.sealedPIN)
                        seal.watches[ref] = SealBook.Watch(
                            grid, requiresHardware: stored.message.requiresHardware,
                            owner: stored.sealOwner,
                            block: CellGrid.keyBlock(version: stored.message.version, withPIN: withPIN))
                    }
                }
            }
        }
    }

    mutating func unregister(_ ref: LockRef) {
        locations.remove(ref)
        altitudes.removeValue(forKey: ref)
        times.removeValue(forKey: ref)
        gpsTimes.remove(ref)
        weathers.remove(ref)
        streaks.removeValue(forKey: ref)
        afters.removeValue(forKey: ref)
        seal.watches.removeValue(forKey: ref)
    }

    mutating func unregisterAll(_ stored: StoredMessage) {
        for key in stored.message.allLockKeys { unregister(LockRef(id: stored.id, key: key)) }
        seal.contents[stored.id] = nil
    }
}
