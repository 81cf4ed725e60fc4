import ChestCore
import FoundationEssentials

/// A rehearsal: a track replayed through the same `Engine` chestd runs, in-process and as fast as it computes,
/// with the clocks taken from the track (docs/QUEST.md "Rehearsal").
package struct Simulation: Sendable {
    /// Something that happened at a point of the track.
    package struct Event: Hashable, Sendable {
        package enum What: Hashable, Sendable {
            case latched(LockKey)
            /// `nil`: a page without locks, open from the start.
            case opened(page: Int, set: LockSetName?)
        }

        package var what: What
        package var message: MessageID
        package var time: Date
        /// 1-based index into the track.
        package var point: Int
        package var coordinate: Coordinate?
    }

    /// A page that never opened, and why each set did not.
    package struct Miss: Hashable, Sendable {
        /// A lock that did not latch, and why.
        package struct Lock: Hashable, Sendable {
            package var kind: LockKind
            package var why: String
        }

        package var message: MessageID
        package var page: Int
        /// For each non-empty set, the locks that did not latch.
        package var sets: [LockSetName: [Lock]]
    }

    /// The weather every request gets during the replay.
    package struct Weather: Hashable, Sendable {
        package var condition: WeatherCondition?
        package var temperatureC: Double?

        package init(condition: WeatherCondition?, temperatureC: Double?) {
            self.condition = condition
            self.temperatureC = temperatureC
        }

        /// `snowy`, `snowy,-2` or `,-2`.
        package init?(_ text: String) {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard (1...2).contains(parts.count) else { return nil }
            let condition = parts[0].isEmpty ? nil : WeatherCondition(rawValue: parts[0].lowercased())
            guard parts[0].isEmpty || condition != nil else { return nil }
            let temperature = parts.count == 2 ? Double(parts[1]) : nil
            guard parts.count == 1 || temperature?.isFinite == true else { return nil }
            self.init(condition: condition, temperatureC: temperature)
        }
    }

    package var messages: [Message]
    package var track: Track
    package var weather: Weather?
    package var events: [Event] = []
    package var misses: [Miss] = []

    /// Whether every page of every message opened.
    package var allOpened: Bool { misses.isEmpty }

    /// Replays `track` for `messages`, as a reader who received them before the walk.
    package init(messages: [Message], track: Track, weather: Weather?, timeZone: Zone) {
        self.messages = messages
        self.track = track
        self.weather = weather
        guard let first = track.points.first else { return }
        var engine = Engine(gpsServer: "simulation")
        _ = engine.handle(.gpsLink(connected: true, server: "simulation", reason: nil))
        func now(_ point: Track.Point) -> Now {
            Now(wall: point.time, monotonic: 1000 + point.time.timeIntervalSince(first.time))
        }
        var states: [MessageID: MessageState] = [:]
        var pending = [
            Engine.Input.loaded(
                messages.map {
                    StoredMessage(
                        message: $0, state: MessageState(ingestedAt: first.time), chest: .regular, sentByYou: false)
                }, refused: [], now(first))
        ]
        for (index, point) in track.points.enumerated() {
            let clocks = now(point)
            let fix = Fix(
                mode: point.coordinate == nil ? 1 : point.altitudeMSL == nil ? 2 : 3, coordinate: point.coordinate,
                altitudeMSL: point.altitudeMSL, satellitesUsed: point.coordinate == nil ? 0 : 7, time: point.time,
                receivedAt: clocks.monotonic)
            pending += [.fix(fix, clocks), .tick(clocks)]
            while !pending.isEmpty {
                // Every write succeeds here: what waits for one is carried out after it.
                for effect in engine.handle(pending.removeFirst()).flattened {
                    switch effect {
                    case let .persist(id, state, _):
                        events += Self.changes(from: states[id], to: state, id: id, point: index + 1, at: point)
                        states[id] = state
                    case let .fetchWeather(coordinate):
                        if let weather {
                            pending.append(
                                .weatherFetched(
                                    WeatherObservation(
                                        condition: weather.condition, temperatureC: weather.temperatureC,
                                        coordinate: coordinate,
                                        observedAt: point.time, fetchedAt: point.time, provider: "simulation"), clocks))
                        } else {
                            pending.append(
                                .weatherFailed(reason: "no --weather given", retryAfter: nil, offline: true, clocks))
                        }
                    default: break
                    }
                }
            }
        }
        let end = now(track.points[track.points.count - 1])
        for message in messages {
            guard let report = engine.read(message.id, now: end) else { continue }
            for page in report.pages where !page.open {
                let sets = page.sets.map { set in
                    (
                        set.set,
                        set.locks.filter { !$0.holds }.map { lock in
                            Miss.Lock(
                                kind: lock.type,
                                why: why(
                                    message.lock(LockKey(page: page.number, set: set.set, kind: lock.type)),
                                    reason: lock.reason, messages: messages, timeZone: timeZone, end: end.wall))
                        }
                    )
                }
                misses.append(
                    Miss(message: message.id, page: page.number, sets: Dictionary(uniqueKeysWithValues: sets)))
            }
        }
    }

    /// The latches and openings between two states of a message.
    static func changes(
        from old: MessageState?, to new: MessageState, id: MessageID, point: Int, at trackPoint: Track.Point
    ) -> [Event] {
        var events: [Event] = []
        for key in new.latched.keys.sorted() where old?.latched[key] == nil {
            events.append(
                Event(
                    what: .latched(key), message: id, time: trackPoint.time, point: point,
                    coordinate: trackPoint.coordinate))
        }
        for page in new.openPages where old?.isOpen(page: page.page) != true {
            events.append(
                Event(
                    what: .opened(page: page.page, set: page.set), message: id, time: trackPoint.time, point: point,
                    coordinate: trackPoint.coordinate))
        }
        return events
    }

    /// Why a lock never latched, in terms of the track where the track can tell.
    private func why(_ lock: Lock?, reason: LockReason?, messages: [Message], timeZone: Zone, end: Date) -> String {
        let clock = { (date: Date) in LockReason.clock(date, timeZone) }
        switch lock {
        case let .location(center, radius)?:
            let fixes = track.points.filter { $0.coordinate != nil }
            guard
                let closest = fixes.min(by: {
                    $0.coordinate!.distance(to: center) < $1.coordinate!.distance(to: center)
                })
            else {
                return "the track has no fix"
            }
            let distance = closest.coordinate!.distance(to: center)
            if distance > radius {
                return
                    "the track never came within \(String(printf: "%g", radius)) m; closest \(Int(distance.rounded())) m at \(clock(closest.time))"
            }
            return
                "the track came within \(String(printf: "%g", radius)) m (\(Int(distance.rounded())) m at \(clock(closest.time))) "
                + "but never for \(Engine.confirmations) fixes in a row"
        case let .altitude(bounds)?:
            let readings = track.points.filter { $0.coordinate != nil && $0.altitudeMSL != nil }
            guard
                let closest = readings.min(by: { Self.gap($0.altitudeMSL!, bounds) < Self.gap($1.altitudeMSL!, bounds) }
                )
            else {
                return "the track has no 3D fix"
            }
            if Self.gap(closest.altitudeMSL!, bounds) > 0 {
                return
                    "the track never reached \(bounds) m; closest \(Int(closest.altitudeMSL!.rounded())) m at \(clock(closest.time))"
            }
            return "the track was inside \(bounds) m but never for \(Engine.confirmations) 3D fixes in a row"
        case let .time(instant)?:
            return "opens at \(clock(instant)), after the track ended at \(clock(end))"
        case .pin?:
            return "needs the PIN; simulate enters none"
        case .answer?:
            return "needs the answer to its question; none of its answers was given (simulate --answer PAGE=TEXT)"
        case let .after(link)?:
            guard let target = messages.first(where: { $0.id == link.message }) else {
                return "waits for message \(link.message.short), not in this simulation"
            }
            return "page \(link.page) of \u{201C}\(target.title)\u{201D} never opened"
        case .weather? where weather == nil, .temperature? where weather == nil:
            return "no --weather given, so the weather stays unknown"
        default:
            return reason?.text(timeZone: timeZone, now: end) ?? "did not hold"
        }
    }

    private static func gap(_ value: Double, _ bounds: Bounds) -> Double {
        value < bounds.min ? bounds.min - value : value > bounds.max ? value - bounds.max : 0
    }
}
