import ChestCore
import ChestGPS
import ChestIO
import ChestSimulator
import ChestTestSupport
import Foundation
import Testing

/// GPSReader against a real gpsd 3.22, fed by gpsfake or by a pty.
@Suite(.realProcesses, .tags(.process, .gpsd), .timeLimit(.minutes(2)))
struct GPSReaderTests {
    let log = Log(sink: { _ in })
    let start = Date(timeIntervalSince1970: 1_780_304_400)  // 2026-06-01T09:00:00Z
    let a = Coordinate(latitude: 47.376900, longitude: 8.541700)
    let b = Coordinate(latitude: 47.377854, longitude: 8.543109)

    @Test func walkIsReadWithCoordinatesAltitudeAndMode() async throws {
        let walk = NMEAWalk(
            waypoints: [.init(a, altitudeMSL: 410, hold: 2), .init(b, altitudeMSL: 470, hold: 2)],
            start: start, speed: 10)
        let epochs = Dictionary(uniqueKeysWithValues: walk.epochs().map { ($0.time, $0) })
        let fake = try GPSFake(walk: walk, delay: 0.01)
        defer { fake.stop() }
        // At the end of the replay gpsd deactivates the device (a mode-0 fix) and then exits.
        let all = try await readUntilGPSDExits(fake)
        #expect(all.first == .connected(server: "localhost:\(fake.port)"))
        let fixes = all.fixes
        let threeD = fixes.filter { $0.mode == 3 }
        #expect(threeD.count >= epochs.count - 1)
        for fix in fixes where fix.mode >= 2 {
            let time = try #require(fix.time)
            let epoch = try #require(epochs[time], "a fix at \(time), which the walk has no epoch for")
            let coordinate = try #require(fix.coordinate)
            #expect(coordinate.distance(to: epoch.coordinate) < 0.05)
            if fix.mode == 3 {
                let altitude = try #require(fix.altitudeMSL)
                #expect(abs(altitude - epoch.altitudeMSL) <= 0.051)  // GGA carries one decimal
                #expect(fix.eph != nil)
            }
        }
        #expect(threeD.last?.coordinate.map { $0.distance(to: b) < 0.05 } == true)
        #expect(threeD.last?.altitudeMSL == 470)
        #expect(threeD.dropFirst(2).allSatisfy { $0.satellitesUsed == NMEAWalk.satellitesUsedInFix })
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $0.receivedAt <= $1.receivedAt })
        let end = try #require(all.lastIndex { if case .fix(let fix) = $0 { fix.mode == 0 } else { false } })
        #expect(all[end...].fixes.allSatisfy { $0.mode == 0 && $0.coordinate == nil })
        #expect(all.last == .disconnected(server: "localhost:\(fake.port)", reason: "gpsd closed the connection"))
        #expect(fake.waitForExit(timeout: 10) == 0)
    }

    @Test func noFixStretchShowsModeBelowTwo() async throws {
        let c = Coordinate(latitude: 47.377300, longitude: 8.542300)
        let walk = NMEAWalk(
            waypoints: [
                .init(a, altitudeMSL: 410, hold: 3), .init(c, altitudeMSL: 430, noFix: true, hold: 4),
                .init(b, altitudeMSL: 470, hold: 3),
            ], start: start, speed: 20)
        let blind = Set(walk.epochs().filter { !$0.hasFix }.map(\.time))
        let fake = try GPSFake(walk: walk, delay: 0.01)
        defer { fake.stop() }
        let fixes = try await readUntilGPSDExits(fake).fixes
        let inStretch = fixes.filter { $0.time.map(blind.contains) == true }
        #expect(inStretch.count >= blind.count)
        #expect(inStretch.allSatisfy { $0.mode < 2 && $0.coordinate == nil && $0.altitudeMSL == nil })
        let firstBlind = try #require(fixes.firstIndex { $0.mode == 1 })
        #expect(fixes[..<firstBlind].contains { $0.mode == 3 })
        #expect(fixes[firstBlind...].contains { $0.mode == 3 && $0.coordinate != nil })
    }

    @Test func absentGpsdIsReportedOnceThenConnectedWhenItStarts() async throws {
        let port = FreePort.onLoopback()
        let events = EventRecorder<GPSEvent>()
        let lines = EventRecorder<String>()
        let pauses = EventRecorder<Int>()
        let reader = GPSReader(
            host: "localhost", port: String(port), log: Log(verbose: true, sink: lines.record),
            onEvent: events.record, beforeEachPause: { pauses.record(1) })
        reader.start()
        defer { reader.stop() }
        #expect(await events.wait(timeout: 5) { !$0.isEmpty })
        #expect(
            events.all.first == .disconnected(server: "localhost:\(port)", reason: "can't connect to host/port pair"))
        // Let at least one retry fail too: that must not be reported again.
        #expect(await lines.wait(timeout: 5) { $0.count { $0.contains("next try in") } >= 2 }, "\(lines.all)")
        // Each failed attempt is followed by the hook before the wait (chestd hands back the attempt's code there).
        #expect(await pauses.wait(timeout: 5) { $0.count >= 2 })

        let walk = NMEAWalk(waypoints: [.init(a, altitudeMSL: 410, hold: 80)], start: start)
        let fake = try GPSFake(walk: walk, delay: 0.02, port: port)
        defer { fake.stop() }
        #expect(await events.wait(timeout: 20) { $0.fixes.contains { $0.mode == 3 } })
        let all = events.all
        #expect(all.count { if case .disconnected = $0 { true } else { false } } == 1)
        #expect(all.firstIndex(of: .connected(server: "localhost:\(port)")) == 1)
        #expect(all.fixes.first { $0.mode == 3 }?.coordinate.map { $0.distance(to: a) < 0.05 } == true)
    }

    @Test func killedGpsdIsReconnectedOnTheSamePort() async throws {
        let walk = NMEAWalk(
            waypoints: [.init(a, altitudeMSL: 410), .init(b, altitudeMSL: 470, hold: 600)],
            start: start, speed: 5)
        let feeder = try PTYFeeder(walk: walk, interval: 0.1)
        defer { feeder.stop() }
        let port = FreePort.onLoopback()
        let first = try GPSDaemon(port: port, device: feeder.devicePath)
        let events = EventRecorder<GPSEvent>()
        let reader = GPSReader(host: "localhost", port: String(port), log: log, onEvent: events.record)
        reader.start()
        defer { reader.stop() }
        let server = "localhost:\(port)"
        #expect(await events.wait(timeout: 15) { $0.fixes.count { $0.mode == 3 } >= 3 }, "\(first.output)")

        first.stop()
        #expect(
            await events.wait(timeout: 5) {
                $0.last == .disconnected(server: server, reason: "gpsd closed the connection")
            })
        let lostAt = events.all.count
        let second = try GPSDaemon(port: port, device: feeder.devicePath)
        defer { second.stop() }
        #expect(
            await events.wait(timeout: 20) { $0.dropFirst(lostAt).fixes.count { $0.mode == 3 } >= 3 },
            "\(second.output)")
        let after = Array(events.all.dropFirst(lostAt))
        #expect(after.first == .connected(server: server))
        #expect(!after.contains { if case .disconnected = $0 { true } else { false } })
        let times = after.fixes.compactMap(\.time)
        #expect(times.count >= 3)
    }

    @Test func stopEndsTheReaderWithinASecond() async throws {
        let walk = NMEAWalk(waypoints: [.init(a, altitudeMSL: 410, hold: 100)], start: start)
        let fake = try GPSFake(walk: walk, delay: 0.05)
        defer { fake.stop() }
        let events = EventRecorder<GPSEvent>()
        let reader = GPSReader(host: "localhost", port: String(fake.port), log: log, onEvent: events.record)
        reader.start()
        #expect(await events.wait(timeout: 15) { !$0.fixes.isEmpty })
        let clock = ContinuousClock()
        let elapsed = clock.measure { reader.stop() }
        #expect(elapsed < .milliseconds(1500))
        let count = events.all.count
        // gpsd goes on sending: another reader hears it while the stopped one hears nothing more.
        let witness = EventRecorder<GPSEvent>()
        let other = GPSReader(host: "localhost", port: String(fake.port), log: log, onEvent: witness.record)
        other.start()
        defer { other.stop() }
        #expect(await witness.wait(timeout: 15) { $0.fixes.count >= 3 })
        #expect(events.all.count == count)
    }

    @Test func theTenReceiverLogsAreInTheRepository() {
        #expect(GPSLogs.entries().count == 10, "Tests/Fixtures/gpslogs and its logs.tsv")
    }

    @Test(arguments: GPSLogs.entries())
    func replayedLogYieldsFixesInsideItsBox(_ entry: GPSLogs.Entry) async throws {
        let fake = try GPSFake(log: entry.url, delay: 0)
        defer { fake.stop() }
        let threeD = try await readUntilGPSDExits(fake, timeout: 40).fixes.filter { $0.mode == 3 }
        #expect(threeD.contains { $0.coordinate != nil })
        // logs.tsv's box comes from the last TPV of each epoch; earlier TPVs of an epoch may lag a little.
        let margin = 0.0001
        // gpsd 3.22 sends some 3D TPVs without a position (ais-nmea); those carry no coordinate.
        for fix in threeD {
            guard let coordinate = fix.coordinate else { continue }
            #expect(
                coordinate.latitude >= entry.latitudes.lowerBound - margin
                    && coordinate.latitude <= entry.latitudes.upperBound + margin,
                "\(entry.name): latitude \(coordinate.latitude) outside \(entry.latitudes)")
            #expect(
                coordinate.longitude >= entry.longitudes.lowerBound - margin
                    && coordinate.longitude <= entry.longitudes.upperBound + margin,
                "\(entry.name): longitude \(coordinate.longitude) outside \(entry.longitudes)")
        }
    }
}

extension Collection<GPSEvent> {
    fileprivate var fixes: [Fix] {
        compactMap { if case .fix(let fix) = $0 { fix } else { nil } }
    }
}

extension GPSReaderTests {
    /// Reads gpsfake's gpsd with a `GPSReader` until the replay is over and gpsd has gone; everything reported.
    /// A minute: during a whole `make test`, gpsfake and gpsd once took more than 30 s over a replay of seconds.
    func readUntilGPSDExits(_ fake: GPSFake, timeout: Double = 60) async throws -> [GPSEvent] {
        let events = EventRecorder<GPSEvent>()
        let reader = GPSReader(host: "localhost", port: String(fake.port), log: log, onEvent: events.record)
        reader.start()
        defer { reader.stop() }
        let ended = await events.wait(timeout: timeout) {
            $0.contains { if case .disconnected = $0 { true } else { false } }
        }
        // What gpsfake said, for the one run in many where gpsd neither sent a fix nor went away.
        #expect(
            ended,
            "\(events.all.count) events; gpsfake \(fake.isRunning ? "still running" : "ended"): \(fake.output.suffix(2_000))"
        )
        return events.all
    }
}
