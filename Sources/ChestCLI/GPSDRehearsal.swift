import ChestCore
import ChestIO
import ChestSeal
import ChestSimulator
import FoundationEssentials
import Glibc

/// `chest simulate --gpsd`: the same rehearsal through the whole path, gpsfake replaying the track into a real
/// gpsd and a private chestd (its own chest, socket and settings) reading it (docs/DESIGN.md "gpsfake harness").
/// Its weather is the rehearsal's (`--weather`, served on loopback by `RehearsalWeatherServer`), else offline.
struct GPSDRehearsal {
    let settings: Settings
    var weather: Simulation.Weather?

    /// A page chestd opened, at chestd's own clock.
    struct Opened {
        var id: MessageID
        var page: Int
        var set: LockSetName?
        var at: Date
    }

    struct Outcome {
        var opened: [Opened]
        var reports: [ReadReport]
    }

    func run(_ rehearsal: Rehearsal, track: Track) throws -> Outcome {
        let root: String
        do { root = try Directory.makeTemporary("chest-simulate") } catch {
            throw ChestError("cannot make a temporary directory: \(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: root) }
        for directory in ["chest", "run", "config"] {
            try FileManager.default.createDirectory(
                atPath: root + "/" + directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        try writeMessages(rehearsal, into: root + "/chest")
        try Data(Self.nmea(track).utf8).write(to: URL(fileURLWithPath: root + "/track.nmea"))
        let weatherServer = try weather.map(RehearsalWeatherServer.init)
        defer { weatherServer?.stop() }
        for _ in 1...Self.attempts {
            if let outcome = try replay(rehearsal, track: track, root: root, weatherURL: weatherServer?.url) {
                return outcome
            }
        }
        let log = (try? String(contentsOfFile: root + "/gpsfake.log", encoding: .utf8)) ?? ""
        throw ChestError(
            "gpsfake did not give gpsd the track in \(Self.attempts) attempts: \(log.suffix(400))")
    }

    /// gpsfake gives up when it reaches gpsd before gpsd listens, or when another program took the port in the
    /// meantime, and waits forever when gpsd missed its device (docs/DESIGN.md "gpsfake pitfalls"): each is tried
    /// again, on a new port.
    static let attempts = 3

    /// One replay: gpsfake, then a private chestd, until gpsfake has played everything; nil when gpsd did not
    /// listen or get the track's pty as a device within 15 s, or the feed began before chestd was there.
    private func replay(_ rehearsal: Rehearsal, track: Track, root: String, weatherURL: String?) throws -> Outcome? {
        let port = FreePort.onLoopback()
        let gpsfakeLog = root + "/gpsfake.log"
        let gpsfake = try spawn(
            Self.which("gpsfake"),
            [
                "-1", "-p", "-q", "-s", "38400", "-P", "\(port)", "-c", "0.01",
                "-r", #"?WATCH={"enable":true,"json":true}"#, root + "/track.nmea",
            ],
            // Unbuffered, so that gpsd's device shows in the log as gpsfake's watcher hears of it.
            environment: ["TMPDIR": root, "PYTHONUNBUFFERED": "1"].merging(Self.gpsdHome) { $1 }, log: gpsfakeLog)
        defer { Self.stop(gpsfake) }
        // gpsfake feeds 1.4 s after gpsd listens, whoever is there; chestd, started beside it, may still be in a
        // reconnection backoff and miss the start of the track. So gpsfake is held (SIGSTOP) as soon as gpsd
        // listens, and let go once chestd is connected (docs/DESIGN.md "gpsfake pitfalls").
        guard FreePort.waitUntilListening(port, timeout: 15, unless: { ProcessSpawner.exited(gpsfake) }) else {
            return nil
        }
        kill(gpsfake, SIGSTOP)
        // The watcher prints gpsd's device once gpsfake's feed loop runs: then it was not held in time.
        guard !Self.listsADevice(gpsfakeLog) else { return nil }
        let socket = root + "/run/chestd.sock"
        let chestd = try spawn(
            HelperProcess.ownExecutable, argv0: "chestd",
            [
                "--chest", root + "/chest", "--socket", socket, "--gpsd", "127.0.0.1:\(port)",
                "--config", root + "/config/config.json", "--weather-url", weatherURL ?? "http://127.0.0.1:9",
            ],
            environment: ["XDG_CONFIG_HOME": root + "/config"], log: root + "/chestd.log")
        defer { Self.stop(chestd) }
        let watch = try subscribe(socket, chestd: chestd, log: root + "/chestd.log")
        try waitUntilConnected(socket, chestd: chestd, log: root + "/chestd.log")
        kill(gpsfake, SIGCONT)

        var opened: [Opened] = []
        var gpsfakeDone = false
        var gpsdGone = false
        var deviceAdded = false
        let started = MonotonicClock.now()
        var lastEvent = started
        let deadline = started + Double(track.points.count) * 0.2 + 60
        // Done once gpsfake has played everything and chestd saw gpsd go (or fell quiet).
        while MonotonicClock.now() < deadline {
            if ProcessSpawner.exited(gpsfake) { gpsfakeDone = true }
            if !deviceAdded {
                deviceAdded = Self.listsADevice(gpsfakeLog)
                if !deviceAdded && (gpsfakeDone || MonotonicClock.now() - started > 15) { return nil }
            }
            if gpsfakeDone && (gpsdGone || MonotonicClock.now() - lastEvent > 3) { break }
            guard let line = try? watch.nextLine(timeout: 0.5) else { continue }
            lastEvent = MonotonicClock.now()
            switch try? ChestJSON.decoder().decode(ChestEvent.self, from: line) {
            case let .unlocked(unlock)?:
                opened.append(Opened(id: unlock.id, page: unlock.page, set: unlock.set, at: unlock.at))
            case .gpsd(false, _, _)?: gpsdGone = true
            default: break
            }
        }
        guard gpsfakeDone else {
            throw ChestError("gpsfake did not finish the track in time; see chest simulate without --gpsd")
        }
        let reports = try rehearsal.items.map { item in
            try ControlClient(socketPath: socket).call(
                ControlRequest.read(id: item.draft.id.rawValue), expecting: ReadReport.self)
        }
        return Outcome(opened: opened, reports: reports)
    }

    /// Whether gpsfake's watcher heard gpsd name a device (in its list of devices, or as one added).
    private static func listsADevice(_ log: String) -> Bool {
        (try? String(contentsOfFile: log, encoding: .utf8))?.contains(#"{"class":"DEVICE","#) == true
    }

    /// The messages as files in the private chest: a quest's sealed with the user's identity (so the private
    /// chestd, whose identity is its own, evaluates them), message files as they are.
    private func writeMessages(_ rehearsal: Rehearsal, into chest: String) throws {
        let identity = rehearsal.fromQuest ? try Identity.loadOrCreate(at: settings.identityPath) : nil
        for (item, message) in zip(rehearsal.items, try rehearsal.messages(settings: settings)) {
            var sealed = message
            if let identity {
                for index in sealed.pages.indices {
                    sealed.pages[index].setA = sealed.pages[index].setA.map(Self.hashingPIN)
                    sealed.pages[index].setB = sealed.pages[index].setB.map(Self.hashingPIN)
                }
                sealed = Sealer.seal(sealed, with: identity)
            }
            try MessageFile.encode(sealed).write(
                to: URL(fileURLWithPath: chest + "/" + item.name + "." + MessageFile.fileExtension))
        }
    }

    private static func hashingPIN(_ lock: Lock) -> Lock {
        if case let .pin(digits) = lock { .pin(hash: Sealer.hashPIN(digits)) } else { lock }
    }

    private func subscribe(_ socket: String, chestd: pid_t, log: String) throws -> ControlClient {
        let deadline = MonotonicClock.now() + 10
        while MonotonicClock.now() < deadline {
            if let client = try? ControlClient(socketPath: socket), (try? client.send(ControlRequest.watch)) != nil,
                let first = try? client.nextLine(timeout: 2), (try? ControlClient.decode(first, as: Empty.self)) != nil
            {
                return client
            }
            if ProcessSpawner.exited(chestd) { break }
            usleep(50_000)
        }
        throw ChestError(
            "the private chestd did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
    }

    /// Waits until the private chestd has reached gpsd (its reconnection backoff is at most 10 s).
    private func waitUntilConnected(_ socket: String, chestd: pid_t, log: String) throws {
        let deadline = MonotonicClock.now() + 30
        while MonotonicClock.now() < deadline, !ProcessSpawner.exited(chestd) {
            let status = try? ControlClient(socketPath: socket).call(
                ControlRequest.status, expecting: StatusReport.self, timeout: 5)
            if status?.gpsd.connected == true { return }
            usleep(50_000)
        }
        throw ChestError(
            "the private chestd did not reach gpsd: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
    }

    /// The track as 1 Hz NMEA, the way chest-walk writes a walk.
    static func nmea(_ track: Track) -> String {
        var last = track.points.first?.coordinate ?? Coordinate(latitude: 0, longitude: 0)
        return track.points.flatMap { point in
            last = point.coordinate ?? last
            return NMEAWalk.sentences(
                for: NMEAWalk.Epoch(
                    time: point.time, coordinate: last, altitudeMSL: point.altitudeMSL ?? 0,
                    hasFix: point.coordinate != nil))
        }.joined(separator: "\r\n") + "\r\n"
    }

    /// Starts `executable`, called `argv0` when given: chestd is this program's own file called chestd (chest and
    /// chestd are one program, HelperProcess).
    private func spawn(
        _ executable: String, argv0: String? = nil, _ arguments: [String], environment: [String: String],
        log: String
    ) throws -> pid_t {
        do {
            return try ProcessSpawner.spawn(
                executable, argv0: argv0, arguments: arguments,
                environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                fileActions: [
                    .open(1, path: log, flags: O_WRONLY | O_CREAT | O_TRUNC, permissions: 0o600),
                    .duplicate(1, as: 2),
                ])
        } catch {
            throw ChestError("cannot start \(argv0 ?? executable): \(error)")
        }
    }

    /// SIGTERM, never SIGKILL: gpsfake stops its gpsd on SIGTERM (docs/DESIGN.md "gpsfake pitfalls").
    private static func stop(_ pid: pid_t) {
        guard !ProcessSpawner.exited(pid) else { return }
        kill(pid, SIGTERM)
        kill(pid, SIGCONT)  // a held gpsfake acts on the SIGTERM only once it runs again
        for _ in 0..<100 where !ProcessSpawner.exited(pid) { usleep(50_000) }
    }

    /// gpsfake starts gpsd from GPSD_HOME or PATH; Debian installs gpsd in /usr/sbin, which a user's PATH may not
    /// hold: then GPSD_HOME names it.
    static var gpsdHome: [String: String] {
        guard SearchPath.find("gpsd") == nil, ProcessInfo.processInfo.environment["GPSD_HOME"] == nil,
            FileManager.default.isExecutableFile(atPath: "/usr/sbin/gpsd")
        else { return [:] }
        return ["GPSD_HOME": "/usr/sbin"]
    }

    private static func which(_ name: String) throws -> String {
        guard let path = SearchPath.find(name) else { throw ChestError("--gpsd needs \(name) (Debian: gpsd-tools)") }
        return path
    }
}

extension ProcessSpawner {
    /// Whether the child has exited (it is reaped if so).
    static func exited(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        return result == pid || (result == -1 && errno == ECHILD)
    }
}
