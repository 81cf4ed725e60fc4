import ChestCore
import ChestIO
import Foundation
import Testing

@Suite struct WeatherScheduleTests {
    let schedule = WeatherSchedule()
    let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    let here = Coordinate(latitude: 48.858_37, longitude: 2.294_48)

    func observation(at coordinate: Coordinate? = nil, observed: Date, fetched: Date? = nil) -> WeatherObservation {
        WeatherObservation(
            condition: .snowy, temperatureC: -1, coordinate: (coordinate ?? here).rounded(places: 2),
            observedAt: observed, fetchedAt: fetched ?? observed, provider: "open-meteo")
    }

    // MARK: - When to fetch

    /// Privacy: no request leaves the machine unless a weather or temperature lock waits.
    @Test func noFetchWhenNothingIsPending() {
        let plan = schedule.plan(pending: false, position: here, cached: nil, history: .init(), now: t0)
        #expect(plan.fetch == nil)
        #expect(plan.nextCheck == nil)
        #expect(plan.reason == .nothingPending)
    }

    @Test func noFetchWithoutAFix() {
        let plan = schedule.plan(pending: true, position: nil, cached: nil, history: .init(), now: t0)
        #expect(plan.fetch == nil)
        #expect(plan.nextCheck == nil)
        #expect(plan.reason == .noFix)
    }

    @Test func fetchesAtOnceForTheRoundedPositionWhenNothingIsCached() {
        let plan = schedule.plan(pending: true, position: here, cached: nil, history: .init(), now: t0)
        #expect(plan.fetch == Coordinate(latitude: 48.86, longitude: 2.29))
        #expect(plan.reason == .missing)
        #expect(plan.nextCheck == t0 + 600)
    }

    @Test func noSecondRequestWhileOneIsInFlight() {
        var history = WeatherFetchHistory()
        history.started(at: t0)
        let plan = schedule.plan(pending: true, position: here, cached: nil, history: history, now: t0 + 5)
        #expect(plan.fetch == nil)
        #expect(plan.reason == .inFlight)
    }

    @Test func refreshesEveryTenMinutesWhilePending() {
        var history = WeatherFetchHistory()
        history.started(at: t0)
        history.succeeded(at: t0)
        let cached = observation(observed: t0 - 300, fetched: t0)

        let early = schedule.plan(pending: true, position: here, cached: cached, history: history, now: t0 + 599)
        #expect(early.fetch == nil)
        #expect(early.reason == .fresh)
        #expect(early.nextCheck == t0 + 600)

        let due = schedule.plan(pending: true, position: here, cached: cached, history: history, now: t0 + 600)
        #expect(due.fetch == here.rounded(places: 2))
        #expect(due.reason == .refresh)
    }

    @Test func aConfigurableIntervalIsHonoured() {
        let slower = WeatherSchedule(refreshInterval: 15 * 60)
        var history = WeatherFetchHistory()
        history.started(at: t0)
        history.succeeded(at: t0)
        let cached = observation(observed: t0, fetched: t0)
        #expect(
            slower.plan(pending: true, position: here, cached: cached, history: history, now: t0 + 600).fetch == nil)
        #expect(
            slower.plan(pending: true, position: here, cached: cached, history: history, now: t0 + 900).fetch != nil)
    }

    @Test func movingFarFromTheCachedReadingFetchesAtOnceButNotTwiceAMinute() {
        var history = WeatherFetchHistory()
        history.started(at: t0)
        history.succeeded(at: t0)
        let cached = observation(observed: t0, fetched: t0)
        let elsewhere = Coordinate(latitude: 48.95, longitude: 2.29)  // about 10 km north

        let tooSoon = schedule.plan(pending: true, position: elsewhere, cached: cached, history: history, now: t0 + 30)
        #expect(tooSoon.fetch == nil)
        #expect(tooSoon.reason == .tooSoon)
        #expect(tooSoon.nextCheck == t0 + 60)

        let plan = schedule.plan(pending: true, position: elsewhere, cached: cached, history: history, now: t0 + 60)
        #expect(plan.fetch == Coordinate(latitude: 48.95, longitude: 2.29))
        #expect(plan.reason == .moved)
    }

    @Test func movingWithinTheSameAreaWaitsForTheInterval() {
        var history = WeatherFetchHistory()
        history.started(at: t0)
        history.succeeded(at: t0)
        let cached = observation(observed: t0, fetched: t0)
        let nearby = Coordinate(latitude: 48.87, longitude: 2.31)  // a different 0.01° cell, 1.6 km away
        let plan = schedule.plan(pending: true, position: nearby, cached: cached, history: history, now: t0 + 120)
        #expect(plan.fetch == nil)
        #expect(plan.reason == .fresh)
    }

    @Test func backoffDoublesFromOneMinuteUpToFifteen() {
        #expect(schedule.backoff(afterFailures: 0) == 0)
        #expect(schedule.backoff(afterFailures: 1) == 60)
        #expect(schedule.backoff(afterFailures: 2) == 120)
        #expect(schedule.backoff(afterFailures: 3) == 240)
        #expect(schedule.backoff(afterFailures: 4) == 480)
        #expect(schedule.backoff(afterFailures: 5) == 900)
        #expect(schedule.backoff(afterFailures: 1_000) == 900)
    }

    @Test func failuresBackOffExponentially() throws {
        var history = WeatherFetchHistory()
        var now = t0
        var expectedWaits: [TimeInterval] = []
        for failures in 1...6 {
            history.started(at: now)
            history.failed(at: now + 1, offline: true)
            let waiting = schedule.plan(pending: true, position: here, cached: nil, history: history, now: now + 1)
            #expect(waiting.fetch == nil)
            #expect(waiting.reason == (failures == 1 ? .tooSoon : .backingOff))
            let next = try #require(waiting.nextCheck)
            expectedWaits.append(next.timeIntervalSince(now))
            let retry = schedule.plan(pending: true, position: here, cached: nil, history: history, now: next)
            #expect(retry.fetch != nil)
            now = next
        }
        #expect(expectedWaits == [60, 120, 240, 480, 900, 900])
    }

    @Test func aSuccessEndsTheBackoff() {
        var history = WeatherFetchHistory()
        for _ in 1...4 {
            history.started(at: t0)
            history.failed(at: t0, offline: true)
        }
        history.started(at: t0 + 900)
        history.succeeded(at: t0 + 900)
        #expect(history.consecutiveFailures == 0)
        #expect(history.offlineSince == nil)
        let plan = schedule.plan(pending: true, position: here, cached: nil, history: history, now: t0 + 960)
        #expect(plan.fetch != nil)
    }

    @Test func aRetryAfterFromA429IsHonoured() {
        var history = WeatherFetchHistory()
        history.started(at: t0)
        history.failed(at: t0, retryAfter: 3600, offline: false)
        let waiting = schedule.plan(pending: true, position: here, cached: nil, history: history, now: t0 + 1800)
        #expect(waiting.fetch == nil)
        #expect(waiting.reason == .retryAfter)
        #expect(waiting.nextCheck == t0 + 3600)
        #expect(
            schedule.plan(pending: true, position: here, cached: nil, history: history, now: t0 + 3600).fetch != nil)
    }

    @Test func anAbsurdRetryAfterIsCappedAtADay() {
        var history = WeatherFetchHistory()
        history.started(at: t0)
        history.failed(at: t0, retryAfter: 365 * 86400, offline: false)
        let plan = schedule.plan(pending: true, position: here, cached: nil, history: history, now: t0 + 1)
        #expect(plan.nextCheck == t0 + 86400)
    }

    /// A clock set back must not freeze the weather until it catches up again.
    @Test func aClockSetBackDoesNotStarveRequests() {
        var history = WeatherFetchHistory()
        history.started(at: t0)
        history.succeeded(at: t0)
        let cached = observation(observed: t0, fetched: t0)
        let plan = schedule.plan(pending: true, position: here, cached: cached, history: history, now: t0 - 86400)
        #expect(plan.fetch == here.rounded(places: 2))
        history.started(at: t0 - 86400)
        history.succeeded(at: t0 - 86400)
        let renewed = observation(observed: t0 - 86400, fetched: t0 - 86400)
        let later = schedule.plan(
            pending: true, position: here, cached: renewed, history: history, now: t0 - 86400 + 60)
        #expect(later.fetch == nil)
        #expect(later.reason == .fresh)
    }

    @Test func resetForgetsFailuresButKeepsTheLastSuccess() {
        var history = WeatherFetchHistory()
        history.started(at: t0)
        history.succeeded(at: t0)
        history.started(at: t0 + 600)
        history.failed(at: t0 + 600, retryAfter: 3600, offline: false)
        history.reset()
        #expect(history.lastSuccess == t0)
        #expect(history.consecutiveFailures == 0)
        #expect(schedule.plan(pending: true, position: here, cached: nil, history: history, now: t0 + 601).fetch != nil)
    }

    @Test func onlyUnreachableFailuresCountAsOffline() {
        var history = WeatherFetchHistory()
        history.started(at: t0)
        history.failed(at: t0 + 15, offline: true)
        history.started(at: t0 + 75)
        history.failed(at: t0 + 90, offline: true)
        #expect(history.offlineSince == t0)
        history.started(at: t0 + 300)
        history.failed(at: t0 + 301, retryAfter: 60, offline: false)
        #expect(history.offlineSince == nil)
    }

    // MARK: - Freshness

    @Test func aRecentNearbyReadingIsUsable() {
        let cached = observation(observed: t0 - 1799)
        #expect(schedule.reading(of: cached, at: here, now: t0) == .known(cached))
    }

    @Test func missing() {
        #expect(schedule.reading(of: nil, at: here, now: t0) == .unknown(.missing))
    }

    @Test func staleAfterThirtyMinutesByObservationTime() {
        let cached = observation(observed: t0 - 1801, fetched: t0)
        #expect(schedule.reading(of: cached, at: here, now: t0) == .unknown(.stale(age: 1801)))
    }

    @Test func maxAgeIsConfigurable() {
        let lenient = WeatherSchedule(maxAge: 3 * 3600)
        let cached = observation(observed: t0 - 2 * 3600)
        #expect(lenient.reading(of: cached, at: here, now: t0).observation == cached)
    }

    @Test func farBeyondFiveKilometres() throws {
        let cached = observation(observed: t0)
        let away = Coordinate(latitude: 48.92, longitude: 2.29)
        guard case .unknown(.far(let distance)) = schedule.reading(of: cached, at: away, now: t0) else {
            Issue.record("expected far")
            return
        }
        #expect(abs(distance - 6_671) < 10)
        let near = Coordinate(latitude: 48.90, longitude: 2.29)
        #expect(schedule.reading(of: cached, at: near, now: t0).observation == cached)
    }

    @Test func offlineExplainsAnUnusableReading() {
        let cached = observation(observed: t0 - 3600)
        #expect(
            schedule.reading(of: cached, at: here, now: t0, offlineSince: t0 - 1200)
                == .unknown(.offline(since: t0 - 1200)))
        #expect(
            schedule.reading(of: nil, at: here, now: t0, offlineSince: t0 - 1200)
                == .unknown(.offline(since: t0 - 1200)))
    }

    /// Offline is no reason to refuse a reading that is still fresh (stale-if-error).
    @Test func aFreshReadingIsServedWhileOffline() {
        let cached = observation(observed: t0 - 600)
        #expect(schedule.reading(of: cached, at: here, now: t0, offlineSince: t0 - 300) == .known(cached))
    }

    @Test func theNewestUsableReadingAmongSeveralWins() {
        let old = observation(observed: t0 - 1200)
        let new = observation(at: Coordinate(latitude: 48.87, longitude: 2.30), observed: t0 - 60)
        let far = observation(at: Coordinate(latitude: 50, longitude: 2), observed: t0)
        #expect(schedule.reading(among: [old, far, new], at: here, now: t0) == .known(new))
        #expect(schedule.reading(among: [far], at: here, now: t0).observation == nil)
    }

    @Test func aReadingDatedFarAheadOfTheClockIsNotTrusted() {
        let cached = observation(observed: t0 + 7200)
        #expect(schedule.reading(of: cached, at: here, now: t0) == .unknown(.stale(age: -7200)))
    }

    // MARK: - Explanations

    /// 1_790_000_000 is 2026-09-21 14:13:20 UTC.
    static let explanations: [(WeatherUnknown, String)] = [
        (.missing, "weather unknown: no reading yet"),
        (.stale(age: 47 * 60 + 5), "weather unknown: last reading 47 min old"),
        (.stale(age: 3 * 3600 + 5 * 60), "weather unknown: last reading 3 h 5 min old"),
        (.stale(age: -7200), "weather unknown: last reading dated 2 h ahead of the clock"),
        (.far(distance: 7_230), "weather unknown: last reading is for a place 7.2 km away"),
        (.far(distance: 42_400), "weather unknown: last reading is for a place 42 km away"),
        (.offline(since: since13h13), "weather unknown: offline since 13:13"),
        (.offline(since: since18Sep), "weather unknown: offline since 18 Sep 14:13"),
    ]
    static let since13h13 = Date(timeIntervalSince1970: 1_790_000_000 - 3600)
    static let since18Sep = Date(timeIntervalSince1970: 1_790_000_000 - 3 * 86400)

    @Test(arguments: explanations)
    func descriptions(_ unknown: WeatherUnknown, _ text: String) {
        #expect(unknown.description(now: t0, timeZone: Zone(identifier: "UTC")!) == text)
    }

    @Test func offlineTimesAreShownInTheGivenZone() {
        let paris = Zone(identifier: "Europe/Paris")!
        #expect(WeatherUnknown.offline(since: t0).detail(now: t0, timeZone: paris) == "offline since 16:13")
    }
}
