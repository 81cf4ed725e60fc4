import ChestIO
import Foundation
import Testing

@testable import ChestCLI
@testable import ChestCore

/// nav's model without a terminal or chestd: the status and read reports come from a real `Engine` fed fixes, and
/// NavState makes the goals, the pick and the receiver's headline from them.
@Suite struct NavStateTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let utc = Zone(identifier: "UTC")!
    static let start = Coordinate(latitude: 47.3769, longitude: 8.5417)
    /// 150 m north-east of `start`.
    static let place = Coordinate(latitude: 47.377854, longitude: 8.543109)

    static func now(_ seconds: Double) -> Now { Now(wall: t0.addingTimeInterval(seconds), monotonic: 1000 + seconds) }

    static func id(_ n: UInt8) -> MessageID { MessageID(bytes: [n] + [UInt8](repeating: 0xcd, count: 15)) }

    static func fix(at seconds: Double, _ coordinate: Coordinate, altitude: Double = 55) -> Fix {
        var fix = Fix(
            mode: .threeD, coordinate: coordinate, altitudeMSL: altitude, eph: 4, epv: 7, satellitesUsed: 7,
            time: t0.addingTimeInterval(seconds), receivedAt: 1000 + seconds)
        fix.satellitesSeen = 8
        return fix
    }

    /// `coordinate` moved `metres` toward `place` (north-east).
    static func toward(_ metres: Double) -> Coordinate {
        let fraction = metres / start.distance(to: place)
        return Coordinate(
            latitude: start.latitude + (place.latitude - start.latitude) * fraction,
            longitude: start.longitude + (place.longitude - start.longitude) * fraction)
    }

    /// "pilgrim": a visible place, an altitude, a chain on page 1, a time lock; "Snow day": weather or temperature.
    static func engine() -> Engine {
        var start = Page(text: "Start here.", setA: [.location(center: place, radius: 25)])
        start.labels[.a] = "Sé"
        let pilgrim = Message(
            id: id(1), title: "pilgrim", from: "Alice", created: t0,
            pages: [
                start,
                Page(text: "Above the roofs.", setA: [.altitude(Bounds(min: 65, max: 95))]),
                Page(text: "After the start.", setA: [.after(PageLink(message: id(1), page: 1))]),
                Page(text: "At ten past.", setA: [.time(t0.addingTimeInterval(600))]),
            ])
        let snow = Message(
            id: id(2), title: "Snow day", from: "Alice", created: t0,
            pages: [
                Page(text: "Only in snow.", setA: [.weather(.snowy)], setB: [.temperature(Bounds(min: -30, max: 0))])
            ])
        var engine = Engine(gpsServer: "localhost:2947")
        _ = engine.handle(.gpsLink(connected: true, server: "localhost:2947", reason: nil))
        _ = engine.handle(
            .loaded(
                [pilgrim, snow].map {
                    StoredMessage(message: $0, state: MessageState(ingestedAt: t0), chest: .regular, sentByYou: false)
                }, refused: [], now(0)))
        return engine
    }

    static func update(_ state: inout NavState, _ engine: Engine, at seconds: Double, extra: [ReadReport] = []) {
        let reports = [id(1), id(2)].compactMap { engine.read($0, now: now(seconds)) } + extra
        state.update(
            status: engine.status(now: now(seconds)), items: engine.list(chest: .regular), reports: reports,
            timeZone: utc)
    }

    /// A sealed place as chestd explains it: no target, the cells tried.
    static let sealed = ReadReport(
        id: id(3), title: "hidden", from: "Alice", chest: .regular, state: .locked,
        sentByYou: false,
        pages: [
            PageReport(
                number: 1, open: false,
                sets: [
                    SetReport(
                        set: .a,
                        locks: [
                            LockReport(
                                type: .location, condition: "at a hidden place", holds: false,
                                reason: .goThere(cellsTried: 3))
                        ])
                ])
        ])

    @Test func theHuntsCountdownAndTheOrganisersLatestWordAreShown() throws {
        let key = { (byte: UInt8) in Data(repeating: byte, count: 32).base64EncodedString() }
        var hunt = HuntFile(
            id: HuntID("0123456789abcdef0123456789abcdef")!, name: "Old Town",
            broker: BrokerURL("mqtt://127.0.0.1:1883")!,
            organiser: key(1))
        hunt.teams = [
            HuntTeam(
                name: TeamName("red")!, password: "pw-red-0123456789abcdef", publicKey: key(2),
                secretKey: (Data(repeating: 0xee, count: 32) + Data(repeating: 2, count: 32)).base64EncodedString())
        ]
        hunt.setSchedule(HuntSchedule(starts: Self.t0.addingTimeInterval(12 * 60)))
        var engine = Self.engine()
        _ = engine.handle(
            .hunt(.joined(hunt.joinFile(team: TeamName("red")!), ledger: nil, releases: [:], outbox: 0), Self.now(0)))
        var word = HuntEnvelope(hunt: hunt.id, id: 5, sent: Self.t0, said: HuntSaid(text: "Meet at the fountain."))
        word.key = key(1)
        word.signature = Data(repeating: 4, count: 64).base64EncodedString()
        _ = engine.handle(
            .hunt(.heard(word, topic: HuntTopic.said(hunt: hunt.id, id: 5), signatureValid: true), Self.now(1)))
        var state = NavState()
        Self.update(&state, engine, at: 1)
        let lines = NavScreen.huntLines(state, now: Self.t0, columns: 80).map {
            $0.replacingOccurrences(of: NavScreen.bold, with: "").replacingOccurrences(of: NavScreen.plain, with: "")
        }
        #expect(lines == ["  the hunt starts in 12 min", "  the organiser says: Meet at the fountain."], "\(lines)")
    }

    @Test func everyPendingGoalIsShownForWhatItIs() throws {
        var engine = Self.engine()
        var state = NavState()
        // Two fixes 1.4 m apart, a second apart: walking at 1.4 m/s toward the place.
        _ = engine.handle(.fix(Self.fix(at: 1, Self.start), Self.now(1)))
        Self.update(&state, engine, at: 1, extra: [Self.sealed])
        _ = engine.handle(.fix(Self.fix(at: 2, Self.toward(1.4)), Self.now(2)))
        Self.update(&state, engine, at: 2, extra: [Self.sealed])
        #expect(abs((state.speed ?? 0) - 1.4) < 0.05)

        let kinds = state.goals.map(\.kind)
        #expect(kinds == [.place, .sealed, .altitude, .time, .chain, .weather, .temperature])
        let place = try #require(state.goals.first)
        #expect(place.name == "Sé")
        #expect(place.owner == "pilgrim p1")
        #expect(abs((place.metres ?? 0) - 148.6) < 1)
        #expect(NavGoal.compass(place.bearing ?? 0) == "NE")
        // (148.6 m − 25 m radius) at 1.4 m/s: 88.3 s.
        #expect(place.detail == "149 m · 045° NE · arrive in 0:01:29", "\(place.detail)")
        #expect(!place.stale)
        let details = Dictionary(uniqueKeysWithValues: state.goals.map { ($0.kind, $0.detail) })
        #expect(details[.sealed] == "sealed place, no direction: 3 cells tried")
        #expect(details[.altitude] == "climb 10 m (at 55 m, needs 65..95 m)")
        #expect(details[.time] == "opens in 0:09:58, at 08:10:00")
        #expect(details[.chain] == "waits for page 1 of \u{201C}pilgrim\u{201D} to open")
        #expect(details[.weather]?.hasPrefix("wants snowy, now weather unknown") == true, "\(details[.weather] ?? "")")
        #expect(details[.temperature]?.hasPrefix("wants -30..0 °C, now temperature unknown") == true)
        #expect(state.goals.first { $0.kind == .temperature }?.owner == "Snow day p1 set B")
        #expect(state.receiver.headline == "3D FIX")
        #expect(state.receiver.details == ["7/8 satellites", "eph ±4 m", "epv ±7 m", "trust unverified"])
    }

    /// docs/QUEST.md "Order": a place the reader can open now comes before a nearer one whose page still waits for
    /// another page, so the first goal is the nearest open one.
    @Test func theNearestOpenGoalComesBeforeANearerPlaceThatWaitsForAnotherPage() throws {
        let near = Coordinate(latitude: Self.start.latitude + 0.0003, longitude: Self.start.longitude)
        let far = Coordinate(latitude: Self.start.latitude - 0.002, longitude: Self.start.longitude)
        let course = Message(
            id: Self.id(7), title: "course", from: "Alice", created: Self.t0,
            pages: [
                Page(text: "Far.", setA: [.location(center: Self.place, radius: 25)]),
                Page(
                    text: "Near, after the first.",
                    setA: [.location(center: near, radius: 25), .after(PageLink(message: Self.id(7), page: 1))]),
                Page(text: "Farther, open.", setA: [.location(center: far, radius: 25)]),
            ])
        var engine = Engine(gpsServer: "localhost:2947")
        _ = engine.handle(.gpsLink(connected: true, server: "localhost:2947", reason: nil))
        _ = engine.handle(
            .loaded(
                [
                    StoredMessage(
                        message: course, state: MessageState(ingestedAt: Self.t0), chest: .regular, sentByYou: false)
                ],
                refused: [], Self.now(0)))
        _ = engine.handle(.fix(Self.fix(at: 1, Self.start), Self.now(1)))
        var state = NavState()
        state.update(
            status: engine.status(now: Self.now(1)), items: engine.list(chest: .regular),
            reports: [try #require(engine.read(Self.id(7), now: Self.now(1)))], timeZone: Self.utc)
        let places = state.goals.filter { $0.kind == .place }
        #expect(places.map(\.page) == [1, 3, 2], "\(state.goals.map { "\($0.page) \($0.kind) \($0.metres ?? -1)" })")
        #expect(places.last?.waiting == true && places.first?.waiting == false)
        #expect(state.goals.first?.page == 1)
    }

    @Test func anAnswerGoalShowsItsQuestionAndHowToAnswer() throws {
        var page = PageReport(
            number: 2, open: false,
            sets: [
                SetReport(
                    set: .a,
                    locks: [
                        LockReport(type: .answer, condition: "the right answer", holds: false, reason: .needsAnswer)
                    ])
            ])
        page.question = "What is Bern's clock tower called?\nTwo words are fine."
        let report = ReadReport(
            id: Self.id(4), title: "Bern", from: "Alice", chest: .regular, state: .locked, sentByYou: false,
            pages: [page])
        let goal = try #require(NavGoal.goals(of: report, NavContext(now: Self.t0)).first)
        #expect(goal.kind == .answer)
        #expect(
            goal.detail
                == "\u{201C}What is Bern's clock tower called? Two words are fine.\u{201D}: chest answer \(Self.id(4).short) TEXT"
        )
        page.sets[0].locks[0].reason = .answerRefused(until: Self.t0.addingTimeInterval(30))
        let refused = try #require(
            NavGoal.goals(
                of: ReadReport(
                    id: Self.id(4), title: "Bern", from: "Alice", chest: .regular,
                    state: .locked, sentByYou: false, pages: [page]),
                NavContext(now: Self.t0, timeZone: Self.utc)
            ).first)
        #expect(
            refused.detail.hasSuffix("answers refused until 2027-01-15 08:00:30 GMT after too many wrong attempts"),
            "\(refused.detail)")
    }

    @Test func altitudeSaysHowFarToClimbOrDescend() {
        for (altitude, expected) in [
            (100.0, "descend 5 m (at 100 m, needs 65..95 m)"),
            (80.0, "at 80 m, needs 65..95 m: 1 of 3 confirming fixes"),
        ] {
            var engine = Self.engine()
            var state = NavState()
            _ = engine.handle(.fix(Self.fix(at: 1, Self.start, altitude: altitude), Self.now(1)))
            Self.update(&state, engine, at: 1)
            #expect(state.goals.first { $0.kind == .altitude }?.detail == expected)
        }
    }

    @Test func weatherAndTemperatureWantedAgainstNow() {
        var engine = Self.engine()
        var state = NavState()
        _ = engine.handle(.fix(Self.fix(at: 1, Self.start), Self.now(1)))
        let reading = WeatherObservation(
            condition: .clear, temperatureC: 7.5, coordinate: Self.start,
            observedAt: Self.t0, fetchedAt: Self.t0, provider: "open-meteo")
        _ = engine.handle(.weatherFetched(reading, Self.now(1)))
        Self.update(&state, engine, at: 2)
        #expect(state.goals.first { $0.kind == .weather }?.detail == "wants snowy, now clear")
        #expect(state.goals.first { $0.kind == .temperature }?.detail == "wants -30..0 °C, now 7.5 °C")
    }

    @Test func theHeadlineNeverShowsAStaleFixAsCurrent() {
        var engine = Self.engine()
        var state = NavState()
        _ = engine.handle(.fix(Self.fix(at: 1, Self.start), Self.now(1)))
        Self.update(&state, engine, at: 1)
        #expect(state.receiver.level == .fix)
        // The feed froze: 109 s later nav says the receiver is lost, with the age, and the place is last known.
        Self.update(&state, engine, at: 110)
        #expect(state.receiver.headline == "RECEIVER LOST")
        #expect(state.receiver.reason == "no report from the receiver for 109 s")
        #expect(state.receiver.details == ["7/8 satellites", "eph ±4 m", "epv ±7 m", "trust unverified"])
        #expect(state.receiver.detailsAreOld)
        #expect(state.goals.first?.stale == true)
        #expect(state.goals.first?.detail.contains("last known") == true, "\(state.goals.first?.detail ?? "")")
        // A chestd from before `fixState` gives the same verdict from the fix's age.
        var old = engine.status(now: Self.now(110))
        old.fixState = nil
        #expect(NavReceiver.assess(old, problem: nil).headline == "RECEIVER LOST")
        // gpsd gone, then the receiver gone, then no fix under trees, then chestd away.
        _ = engine.handle(.receiver(nil, Self.now(111)))
        Self.update(&state, engine, at: 111)
        #expect(state.receiver.headline == "RECEIVER LOST")
        #expect(state.receiver.reason == "gpsd lost the receiver")
        _ = engine.handle(.fix(Fix(mode: .noFix, receivedAt: 1112), Self.now(112)))
        Self.update(&state, engine, at: 112)
        #expect(state.receiver.headline == "NO FIX")
        _ = engine.handle(.gpsLink(connected: false, server: "localhost:2947", reason: "connection refused"))
        Self.update(&state, engine, at: 113)
        #expect(state.receiver.headline == "GPSD GONE")
        #expect(state.receiver.reason == "gpsd at localhost:2947 is not connected: connection refused")
        state.unreachable("chestd is not running")
        #expect(state.receiver.headline == "CHESTD NOT ANSWERING")
    }

    @Test func withoutChestdTheGoalsAreUnknownNotNone() {
        var state = NavState()
        state.unreachable("chestd is not running")
        let frame = NavScreen.render(state, columns: 100, rows: 40, now: Date()).joined(separator: "\n")
        #expect(frame.contains("unknown until chestd answers") && !frame.contains("nothing to reach"), "\(frame)")
        var empty = Engine(gpsServer: "localhost:2947")
        _ = empty.handle(.loaded([], refused: [], Self.now(1)))
        Self.update(&state, empty, at: 1)
        let answered = NavScreen.render(state, columns: 100, rows: 40, now: Date()).joined(separator: "\n")
        #expect(answered.contains("nothing to reach"), "\(answered)")
    }

    @Test func thePickFollowsItsGoalAndStopsAtTheEnds() {
        var engine = Self.engine()
        var state = NavState()
        _ = engine.handle(.fix(Self.fix(at: 1, Self.start), Self.now(1)))
        Self.update(&state, engine, at: 1, extra: [Self.sealed])
        #expect(state.selected?.kind == .place)
        let quitOnUp = state.press(.up)
        #expect(!quitOnUp)
        #expect(state.selected?.kind == .place)
        for _ in 0..<2 { _ = state.press(.down) }
        #expect(state.selected?.kind == .altitude)
        // The list changes (the sealed message is gone): the pick stays on its goal.
        Self.update(&state, engine, at: 2)
        #expect(state.selected?.kind == .altitude)
        for _ in 0..<20 { _ = state.press(.down) }
        #expect(state.selected?.kind == state.goals.last?.kind)
        _ = state.press(.all)
        #expect(state.showAll)
        let quit = state.press(.quit)
        #expect(quit)
    }

    @Test func keysAndCompassPoints() {
        let bytes = Array("jk\u{1B}[A\u{1B}[B\u{1B}OBxaoq".utf8) + [3]
        #expect(NavKey.parse(bytes) == [.down, .up, .up, .down, .down, .all, .page, .quit, .quit])
        let points = [0, 11, 12, 22.5, 45, 90, 180, 191.25, 337.5, 349, 360, -10].map(NavGoal.compass)
        #expect(points == ["N", "N", "NNE", "NNE", "NE", "E", "S", "SSW", "NNW", "N", "N", "N"])
        #expect(NavGoal.countdown(3599.2) == "1:00:00")
        #expect(NavGoal.countdown(3 * 86_400) == "3 days")
    }

    @Test func theScreenFitsAndShowsAllOnA() {
        var engine = Self.engine()
        var state = NavState()
        _ = engine.handle(.fix(Self.fix(at: 1, Self.start), Self.now(1)))
        Self.update(&state, engine, at: 1, extra: [Self.sealed])
        let frame = NavScreen.render(state, columns: 60, rows: 14, now: Self.t0, timeZone: Self.utc).map(
            NavScreen.withoutEscapes)
        #expect(frame.count <= 14 && frame.allSatisfy { $0.count <= 60 })
        #expect(frame.contains { $0.contains("3D FIX") })
        #expect(frame.contains { $0.contains("more (a: all)") }, "\(frame.joined(separator: "\n"))")
        state.showAll = true
        let all = NavScreen.render(state, columns: 120, rows: 40, now: Self.t0, timeZone: Self.utc).map(
            NavScreen.withoutEscapes)
        #expect(!all.contains { $0.hasPrefix("Messages") })
        #expect(all.filter { $0.contains("pilgrim p") || $0.contains("Snow day") || $0.contains("hidden") }.count == 7)
    }

    /// Issue 32: the goal comes first. A long title gives way to the distance, arrival and targets; the receiver's
    /// reason is never cut; an opened page's text is shown, on the whole screen with o; clock warnings in a row take
    /// one line and never push out an unlock.
    @Test func theGoalComesFirstAtEightyColumnsAndWider() throws {
        var engine = Self.engine()
        var state = NavState()
        _ = engine.handle(.fix(Self.fix(at: 1, Self.start), Self.now(1)))
        Self.update(&state, engine, at: 1)
        let long = "Old town walk: start at the tower, then the hidden courtyard, the well"
        #expect(long.count == 70)
        for index in state.goals.indices { state.goals[index].title = long }
        for columns in [80, 120] {
            let frame = NavScreen.render(state, columns: columns, rows: 40, now: Self.t0, timeZone: Self.utc).map(
                NavScreen.withoutEscapes)
            #expect(frame.allSatisfy { $0.count <= columns })
            for goal in state.goals {
                #expect(
                    frame.contains { $0.hasSuffix(goal.detail) },
                    "\(columns) columns: \(goal.detail)\n\(frame.joined(separator: "\n"))")
            }
            let picked = try #require(frame.firstIndex { $0.hasPrefix("▶ ") && $0.contains("(place)") })
            #expect(frame[picked + 1].hasSuffix(try #require(state.selected?.detail)))
        }

        state.unreachable(
            "cannot reach chestd at /run/user/1000/chestd.sock: gpsd closed the connection and chestd is not running")
        let lost = NavScreen.render(state, columns: 80, rows: 40, now: Self.t0, timeZone: Self.utc).map(
            NavScreen.withoutEscapes)
        #expect(lost.allSatisfy { $0.count <= 80 })
        #expect(
            lost.joined(separator: " ").split(separator: " ").joined(separator: " ").contains(
                "gpsd closed the connection and chestd is not running"),
            "\(lost.joined(separator: "\n"))")

        Self.update(&state, engine, at: 2)
        state.add(event: "09:00:01  unlocked   \"pilgrim\" page 1 is open  (01)")
        state.open(
            title: "pilgrim", page: 1, text: "Start here. Walk up the hill to the old tower and look for the blue door."
        )
        for second in 0..<40 {
            state.add(event: "09:00:\(second)  clock     \(second) s behind of GPS time", repeating: "clock")
        }
        #expect(state.events.count == 2 && state.events[1].hasSuffix("(40 in a row)"), "\(state.events)")
        let frame = NavScreen.render(state, columns: 80, rows: 30, now: Self.t0, timeZone: Self.utc).map(
            NavScreen.withoutEscapes)
        #expect(
            frame.contains { $0.contains("unlocked") && $0.contains("pilgrim") }, "\(frame.joined(separator: "\n"))")
        #expect(frame.contains { $0.hasPrefix("Opened  \u{201C}pilgrim\u{201D} page 1") })
        #expect(frame.contains { $0.hasPrefix("  Start here. Walk up the hill") })
        _ = state.press(.page)
        let page = NavScreen.render(state, columns: 40, rows: 30, now: Self.t0, timeZone: Self.utc).map(
            NavScreen.withoutEscapes)
        #expect(page[1] == "\u{201C}pilgrim\u{201D} page 1  (o: back)")
        #expect(
            page.dropFirst(3).joined(separator: " ").split(separator: " ").joined(separator: " ").contains(
                "look for the blue door."),
            "\(page.joined(separator: "\n"))")
        _ = state.press(.page)
        #expect(!state.showPage)
    }

    /// Issue 47: at 80 columns and narrower, a goal whose need is long keeps its name and its whole need (the need
    /// goes under the name), an unlock's or a hint's event line carries the start of its text, and two messages with
    /// one title are told apart by their short IDs.
    @Test func narrowGoalsEventsAndTwinTitlesStayReadable() throws {
        var engine = Self.engine()
        var state = NavState()
        _ = engine.handle(.fix(Self.fix(at: 1, Self.start), Self.now(1)))
        Self.update(&state, engine, at: 1)
        let long = "Old town walk: start at the tower, then the hidden courtyard, the well"
        for index in state.goals.indices {
            state.goals[index].title = long
            state.goals[index].detail += " · and a need long enough to leave the name no room at all on one line"
        }
        for columns in [60, 80] {
            let frame = NavScreen.render(state, columns: columns, rows: 60, now: Self.t0, timeZone: Self.utc).map(
                NavScreen.withoutEscapes)
            #expect(frame.allSatisfy { $0.count <= columns })
            let words = frame.joined(separator: " ").split(separator: " ").joined(separator: " ")
            for goal in state.goals {
                let detail = goal.detail.split(separator: " ").joined(separator: " ")
                #expect(
                    words.contains(detail),
                    "\(columns) columns: the need is cut: \(goal.detail)\n\(frame.joined(separator: "\n"))")
                let shown = goal.kind == .place && goal.name != goal.owner ? "\(goal.name) · \(goal.owner)" : goal.owner
                #expect(
                    frame.contains { $0.contains(shown.prefix(NavScreen.nameKept)) },
                    "\(columns) columns: the name is cut: \(shown)")
            }
        }

        let unlock = NavState.eventLine(
            "09:00:01  unlocked   \"pilgrim\" page 1 is open by set A  (01)\n          Start here.\n          More.")
        #expect(unlock == "09:00:01  unlocked   \"pilgrim\" page 1 is open by set A  (01) — Start here.")
        #expect(
            NavState.eventLine("09:00:02  hint       \"pilgrim\" page 2: hint 1  (01)\n          Look under the bench.")
                .hasSuffix("hint 1  (01) — Look under the bench."))
        #expect(
            NavState.eventLine("09:00:03  gpsd       connected to localhost:2947")
                == "09:00:03  gpsd       connected to localhost:2947")

        var twins = Engine(gpsServer: "localhost:2947")
        _ = twins.handle(
            .loaded(
                [Self.id(7), Self.id(9)].map { id in
                    StoredMessage(
                        message: Message(
                            id: id, title: "pilgrim", from: "Alice", created: Self.t0,
                            pages: [Page(text: "x", setA: [.time(Self.t0.addingTimeInterval(900))])]),
                        state: MessageState(ingestedAt: Self.t0), chest: .regular, sentByYou: false)
                } + [
                    StoredMessage(
                        message: Message(
                            id: Self.id(8), title: "Snow day", from: "Alice", created: Self.t0,
                            pages: [Page(text: "y", setA: [.time(Self.t0.addingTimeInterval(900))])]),
                        state: MessageState(ingestedAt: Self.t0), chest: .regular, sentByYou: false)
                ], refused: [], Self.now(0)))
        state.update(
            status: twins.status(now: Self.now(2)), items: twins.list(chest: .regular), reports: [], timeZone: Self.utc)
        let pilgrims = state.progress.filter { $0.title == "pilgrim" }
        #expect(pilgrims.count == 2 && Set(pilgrims.compactMap(\.tag)).count == 2, "\(state.progress)")
        #expect(state.progress.first { $0.title == "Snow day" }?.tag == nil)
    }
}
