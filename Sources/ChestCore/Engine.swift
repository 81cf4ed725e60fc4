import struct Foundation.Date

/// The evaluation engine: every locked message, every latch, the last fix and weather, and the rules that open
/// pages. It is pure: `handle(_:)` takes one input, changes the state and returns what the caller must do.
public struct Engine: Sendable {
    /// Something that happened, with the clocks sampled by the caller.
    public enum Input: Sendable {
        /// Messages entering the engine: loaded at start (`announce` false) or just ingested (true).
        case added([StoredMessage], announce: Bool, Now)
        case removed(MessageID)
        case moved(MessageID, to: ChestKind)
        case fix(Fix, Now)
        case gpsLink(connected: Bool, server: String, reason: String?)
        /// The wake-up the engine asked for with `.wake`, or any other moment worth re-checking time locks.
        case tick(Now)
        /// The last reading kept from an earlier run, served (with its age) until a new one arrives.
        case weatherRestored(WeatherObservation)
        /// A weather reading arrived from the provider.
        case weatherFetched(WeatherObservation, Now)
        /// A weather request failed; `offline` when the provider could not be reached at all.
        case weatherFailed(reason: String, retryAfter: Double?, offline: Bool, Now)
        /// A reader tries a PIN on a message (or one page of it).
        case pinAttempt(MessageID, page: Int?, pin: String, Now)
        /// The caller's answer to `.checkPIN`: which of the offered PIN locks the PIN opens.
        case pinChecked(MessageID, pin: String, matching: [LockKey], Now)
        /// An `unlocked` event reached a watcher or a notifier.
        case delivered(MessageID, page: Int)
    }

    /// What the caller must do, in order.
    public enum Effect: Hashable, Sendable {
        /// Write the message's state durably before anything that depends on it.
        case persist(MessageID, MessageState)
        /// Tell watchers and the log.
        case emit(ChestEvent)
        /// Call back with `.tick` at this system-clock instant (the next time lock due); replaces earlier wakes.
        case wake(at: Date?)
        /// Ask the weather provider about this (rounded) position; answer with `.weatherFetched` or `.weatherFailed`.
        case fetchWeather(Coordinate)
        /// Call back with `.tick` at this instant to see whether the weather needs asking again.
        case weatherCheck(at: Date?)
        /// Compare `pin` with these Argon2id hashes and answer with `.pinChecked`.
        case checkPIN(MessageID, pin: String, hashes: [LockKey: String])
        /// The outcome of a `.pinAttempt`.
        case pinResult(MessageID, PINOutcome)
    }

    public internal(set) var entries: [MessageID: StoredMessage] = [:]
    public internal(set) var lastFix: Fix?
    var altitudeEpoch: (epoch: Double?, hadAltitude: Bool) = (nil, false)
    public private(set) var gps: GPSLink
    public internal(set) var clock = ClockGuard()
    public internal(set) var weather: WeatherObservation?
    /// When and how weather is asked for and how old or far a reading may be (SPEC §4, §6).
    public var weatherSchedule = WeatherSchedule()
    public internal(set) var weatherHistory = WeatherFetchHistory()
    /// The provider's last error, for `status`.
    public internal(set) var weatherProblem: String?

    var locations = LocationIndex<LockRef>()
    var altitudes: [LockRef: Bounds] = [:]
    var times: [LockRef: Date] = [:]
    var weathers: Set<LockRef> = []
    var streaks: [LockRef: Streak] = [:]
    var lastEmittedEpoch: Double?
    var scheduledWake: Date??
    var scheduledWeatherCheck: Date??

    /// Location and altitude locks need this many consecutive qualified fixes (SPEC §4).
    public static let confirmations = 3

    public init(gpsServer: String) {
        gps = GPSLink(server: gpsServer)
    }

    public mutating func handle(_ input: Input) -> [Effect] {
        var effects: [Effect] = []
        switch input {
        case let .added(messages, announce, now):
            for stored in messages { effects += add(stored, announce: announce, now: now) }
            effects += rescheduleWake(now)
            effects += planWeather(now)
        case let .removed(id):
            if let stored = entries.removeValue(forKey: id) { unregisterAll(stored) }
        case let .moved(id, chest):
            entries[id]?.chest = chest
        case let .fix(fix, now):
            effects += handleFix(fix, now: now)
        case let .gpsLink(connected, server, reason):
            guard gps.connected != connected || gps.server != server else {
                gps.reason = reason
                break
            }
            gps = GPSLink(server: server)
            gps.connected = connected
            gps.reason = reason
            if !connected { streaks.removeAll() }
            effects.append(.emit(.gpsd(connected: connected, server: server, reason: reason)))
        case let .tick(now):
            effects += latch(times.filter { $0.value <= clock.trustedTime(now) }.map(\.key), now: now)
            effects += latchWeather(now)
            effects += rescheduleWake(now)
            effects += planWeather(now)
        case let .weatherRestored(observation):
            weather = observation
        case let .weatherFetched(observation, now):
            effects += weatherArrived(observation, now: now)
        case let .weatherFailed(reason, retryAfter, offline, now):
            weatherHistory.failed(at: now.wall, retryAfter: retryAfter, offline: offline)
            weatherProblem = reason
            effects += planWeather(now)
        case let .pinAttempt(id, page, pin, now):
            effects += attemptPIN(id, page: page, pin: pin, now: now)
        case let .pinChecked(id, pin, matching, now):
            effects += concludePIN(id, pin: pin, matching: matching, now: now)
        case let .delivered(id, page):
            guard var stored = entries[id],
                  let index = stored.state.openPages.firstIndex(where: { $0.page == page && !$0.delivered })
            else { break }
            stored.state.openPages[index].delivered = true
            entries[id] = stored
            effects.append(.persist(id, stored.state))
        }
        return effects
    }

    /// The `unlocked` events never delivered, oldest first: replayed to the first watcher after a restart.
    public var undelivered: [ChestEvent] {
        entries.values.flatMap { stored in
            stored.state.openPages.filter { !$0.delivered && $0.set != nil }.map {
                ChestEvent.unlocked(stored.message, page: $0.page, set: $0.set, at: $0.at)
            }
        }.sorted { ($0.at ?? .distantPast) < ($1.at ?? .distantPast) }
    }

    // MARK: - Messages in and out

    private mutating func add(_ stored: StoredMessage, announce: Bool, now: Now) -> [Effect] {
        if let old = entries[stored.id] { unregisterAll(old) }
        entries[stored.id] = stored
        var effects: [Effect] = announce ? [.emit(.ingested(stored.message))] : []
        effects += openLocklessPages(stored.id, now: now)
        guard !stored.sentByYou else { return effects }
        register(stored)
        let due = stored.message.pages.indices.flatMap { pageIndex in
            LockSetName.allCases.compactMap { set -> LockRef? in
                let ref = LockRef(id: stored.id, key: LockKey(page: pageIndex + 1, set: set, kind: .time))
                return times[ref].map { $0 <= clock.trustedTime(now) } == true ? ref : nil
            }
        }
        let reading = weatherReading(now: now)
        effects += latch(due + weathers.filter { $0.id == stored.id && weatherHolds($0, reading) }, now: now)
        return effects
    }

    private mutating func openLocklessPages(_ id: MessageID, now: Now) -> [Effect] {
        guard var stored = entries[id] else { return [] }
        let lockless = stored.message.pages.indices.map { $0 + 1 }.filter {
            stored.message.pages[$0 - 1].isUnlocked && !stored.state.isOpen(page: $0)
        }
        guard !lockless.isEmpty else { return [] }
        for page in lockless {
            stored.state.openPages.append(OpenPage(page: page, set: nil, at: now.wall, delivered: true))
        }
        entries[id] = stored
        return [.persist(id, stored.state)]
    }

    /// Files every lock that can still matter (on a page not yet open, not yet latched) with its evaluator.
    private mutating func register(_ stored: StoredMessage) {
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
                    case .weather, .temperature: weathers.insert(ref)
                    case .pin: break
                    }
                }
            }
        }
    }

    private mutating func unregister(_ ref: LockRef) {
        locations.remove(ref)
        altitudes.removeValue(forKey: ref)
        times.removeValue(forKey: ref)
        weathers.remove(ref)
        streaks.removeValue(forKey: ref)
    }

    private mutating func unregisterAll(_ stored: StoredMessage) {
        for key in stored.message.allLockKeys { unregister(LockRef(id: stored.id, key: key)) }
    }

    // MARK: - Latching and opening

    /// Latches these locks (they held just now) and opens every page a fully latched set now covers.
    mutating func latch(_ refs: some Sequence<LockRef>, now: Now) -> [Effect] {
        var touched: Set<MessageID> = []
        for ref in refs {
            guard var stored = entries[ref.id], stored.state.latched[ref.key] == nil else { continue }
            stored.state.latched[ref.key] = now.wall
            entries[ref.id] = stored
            unregister(ref)
            touched.insert(ref.id)
        }
        var effects: [Effect] = []
        for id in touched.sorted() {
            guard var stored = entries[id] else { continue }
            var opened: [OpenPage] = []
            for (pageIndex, page) in stored.message.pages.enumerated() where !stored.state.isOpen(page: pageIndex + 1) {
                let number = pageIndex + 1
                let set = LockSetName.allCases.first { set in
                    !page[set].isEmpty && page[set].allSatisfy {
                        stored.state.latched[LockKey(page: number, set: set, kind: $0.kind)] != nil
                    }
                }
                guard let set else { continue }
                opened.append(OpenPage(page: number, set: set, at: now.wall, delivered: false))
            }
            stored.state.openPages += opened
            entries[id] = stored
            for page in opened {
                for key in stored.message.lockKeys(page: page.page) { unregister(LockRef(id: id, key: key)) }
            }
            effects.append(.persist(id, stored.state))
            for page in opened {
                effects.append(.emit(.unlocked(stored.message, page: page.page, set: page.set, at: page.at)))
            }
        }
        return effects
    }

    // MARK: - Time

    /// The next pending time lock's instant, on the system clock, as a `.wake` when it changed.
    mutating func rescheduleWake(_ now: Now) -> [Effect] {
        let trusted = clock.trustedTime(now)
        let next = times.values.filter { $0 > trusted }.min()
            .map { $0.addingTimeInterval(clock.correction(now)) }
        guard scheduledWake != .some(next) else { return [] }
        scheduledWake = .some(next)
        return [.wake(at: next)]
    }
}

extension Message {
    /// Every lock of every page, by key.
    var allLockKeys: [LockKey] { pages.indices.flatMap { lockKeys(page: $0 + 1) } }

    func lockKeys(page number: Int) -> [LockKey] {
        LockSetName.allCases.flatMap { set in
            pages[number - 1][set].map { LockKey(page: number, set: set, kind: $0.kind) }
        }
    }

    /// The lock a key names.
    public func lock(_ key: LockKey) -> Lock? {
        guard pages.indices.contains(key.page - 1) else { return nil }
        return pages[key.page - 1][key.set].first { $0.kind == key.kind }
    }
}
