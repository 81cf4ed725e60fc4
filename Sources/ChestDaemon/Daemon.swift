import ChestArguments
import ChestCore
import ChestGPS
import ChestIO
import ChestMQTT
import ChestSeal
import Dispatch
import FoundationEssentials
import Glibc

/// chestd: builds the adapters, feeds every event into one loop that owns the engine, and performs the
/// engine's effects. Nothing else holds state.
package final class Daemon {
    let log: Log
    var settings: Settings
    let store: ChestStore
    var engine: Engine
    var identity: Identity?
    /// Open control connections: waiting for their reply, or watching.
    var clients: [ClientID: ControlConnection] = [:]
    var nextClient = 0
    /// Where every adapter posts its events; the loop sleeps on it (and on gpsd's socket) between them.
    let sink: Mailbox<DaemonEvent>
    /// The connection to gpsd while there is one: read by the loop itself when it has something to read, so a fix
    /// costs one wake-up, not one for a reader thread and one for the loop (docs/ARCHITECTURE.md "One loop").
    var gpsConnection: GPSDConnection?
    /// gpsd's socket rests until this monotonic instant after a read (`Daemon.gpsReadInterval`).
    var gpsRestsUntil = -Double.infinity
    var chestWatcher: ChestWatcher?
    var rejectedWatcher: ChestWatcher?
    var chestLock: ChestLock?
    /// The chest was removed and not yet wholly written back: each rescan tries again (`restoreChest`).
    var chestNeedsRestore = false
    /// A look at files left staged or too fresh is planned; the wait grows while files stay stuck.
    var rescanPlanned = false
    var rescanBackoff = 0.0
    var wakeTimer: (any LoopTimer)?
    var weatherTimer: (any LoopTimer)?
    /// Aimed at the last fix's end of life, so a feed that falls silent is told (Engine+FixState.swift).
    var fixTimer: (any LoopTimer)?
    /// Fires `.rescan` once, when the inbox or staged files are to be looked at again (`scheduleRescan`).
    var rescanTimer: WakeTimer?
    /// Fires `.releaseRareMemory`: a second after start-up (`releaseStartupMemory`), and a few seconds after
    /// other rare work (`releaseCodeSoon`).
    var memoryTimer: (any LoopTimer)?
    /// When `memoryTimer` fires (seconds since 1970), nil while it is not aimed.
    var codeReleaseDue: Double?
    /// Whether that release pages out the program's data segment too (`releaseCodeSoon`'s `data`).
    var codeReleasePagesOutData = false
    /// Files ingested since the heap's free pages were last handed back (`ingestStaged`).
    var ingestedSinceRelease = 0
    var weather: WeatherService
    var notifications: Notifications
    let systemd = SystemdNotifier(environment: ProcessInfo.processInfo.environment)
    var systemdStatus = ""
    var systemdMode: FixMode?
    /// The last hours of fixes, for `chest map` and `chest export`.
    let track: TrackRecorder
    /// Argon2id off the loop (SealWorker.swift).
    var sealWorker: SealWorker?
    let attemptsLedger: AttemptsLedger
    /// The link to the hunt this chest plays in, when one was joined (HuntLink.swift).
    let huntLink: HuntLink
    let adapters: Adapters

    /// The signals chestd acts on: SIGTERM and SIGINT stop it, SIGHUP reloads.
    static let signals = [SIGTERM, SIGINT, SIGHUP]

    /// Holds `signals` until the loop's sources read them (`Signals.hold`). Call it first in `main`, before any
    /// other thread starts.
    package static func holdSignals() {
        Signals.hold(signals)
    }

    /// Runs chestd with these arguments (without the program name) and returns its exit status.
    /// The loop runs on the calling thread (the main thread), never on Swift's pool: it sleeps in poll(2).
    package static func main(_ arguments: [String]) -> Int32 {
        let options: DaemonOptions
        do {
            options = try DaemonOptions.parse(arguments)
        } catch {
            printError("chestd: \(error)\n\(DaemonOptions.usageLine)")
            return UsageError.exitStatus
        }
        if options.help {
            print(DaemonOptions.usage)
            return 0
        }
        if options.version {
            print("chestd \(ChestVersion.described)")
            return 0
        }
        do {
            let settings = try Settings(configPath: options.configPath, flags: options.flags).checked()
            let daemon = try Daemon(settings: settings, log: Log(verbose: options.verbose))
            return try daemon.run()
        } catch {
            printError("chestd: \(error)")
            return 1
        }
    }

    /// What `start` set running, stopped by `finish` in the reverse order.
    var running = Running()

    struct Running {
        var signals: Signals?
        var server: ControlServer?
        var gps: GPSReader?
        var watchdog: RepeatingTimer?
        var started = false
    }

    /// What the daemon reaches beyond the chest directory, replaced by tests that drive a `Daemon` in process
    /// (docs/ARCHITECTURE.md "The daemon in process"); chestd's are the defaults.
    struct Adapters {
        /// Makes the hunt's broker client.
        var brokerClient: BrokerClientMaker = mosquittoClient
        /// Whether `start` connects to gpsd; without it the caller hands the loop its connections
        /// (`DaemonEvent.gpsConnection`), as `GPSReader` does.
        var readsGPSD = true
        /// Whether SIGTERM, SIGINT and SIGHUP reach the loop: a test process keeps its own.
        var catchesSignals = true
        /// What the loop reads the time from and aims its timers with: a test's clock moves only when the test
        /// advances it.
        var clock: any LoopClock = SystemClock()
    }

    init(settings: Settings, log: Log, adapters: Adapters = Adapters()) throws {
        self.settings = settings
        self.log = log
        self.adapters = adapters
        store = ChestStore(root: settings.chestDirectory)
        track = TrackRecorder(path: TrackRecorder.path(inChest: settings.chestDirectory))
        let gpsd = settings.gpsd
        engine = Engine(
            gpsServer: "\(gpsd.host):\(gpsd.port)",
            weatherSchedule: WeatherSchedule(maxAge: settings.weatherMaximumAge))
        do {
            sink = try Mailbox()
        } catch {
            throw ChestError("cannot start the event loop: \(error)")
        }
        attemptsLedger = AttemptsLedger(chestRoot: settings.chestDirectory)
        notifications = Notifications(settings: settings)
        weather = WeatherService(settings: settings, cachePath: settings.chestDirectory + "/weather.json", log: log)
        huntLink = HuntLink(chestRoot: settings.chestDirectory, log: log, makeClient: adapters.brokerClient)
    }

    func run() throws -> Int32 {
        defer { finish() }
        try start()
        while true {
            if let status = step() { return status }
        }
    }

    /// Everything up to the loop: the chest prepared and locked, the adapters running, the chest loaded and watched.
    /// `finish` undoes it, also after a throw.
    func start() throws {
        do {
            try store.prepare()
        } catch {
            throw ChestError("cannot prepare the chest directory: \(error)")
        }
        chestLock = try ChestLock(root: store.root)
        running.started = true
        DispatchClocks.prepare()
        let sink = self.sink
        if adapters.catchesSignals { running.signals = Signals(Self.signals) { sink.yield(.signal($0)) } }
        running.server = try ControlServer(path: settings.socketPath, log: log) { sink.yield(.request($0, $1)) }

        wakeTimer = clock.makeTimer { sink.yield(.wake) }
        weatherTimer = clock.makeTimer { sink.yield(.wake) }
        fixTimer = clock.makeTimer { sink.yield(.wake) }
        rescanTimer = WakeTimer { sink.yield(.rescan) }
        memoryTimer = clock.makeTimer { sink.yield(.releaseRareMemory) }
        if let restored = weather.restore() { feed(.weatherRestored(restored)) }
        sealWorker = SealWorker { sink.yield(DaemonEvent($0)) }
        feed(.attemptsRestored(attemptsLedger.loadAll()))
        readHunt()
        loadChest()
        recoverStaged()
        watchChest()
        if adapters.readsGPSD { running.gps = startGPS() }
        log.notice(
            "watching \(store.root) with \(engine.entries.count) messages; control socket \(settings.socketPath)")
        systemd.ready(status: summary())
        // Start-up's decoding is done: its garbage and its code need not stay resident.
        releaseStartupMemory()
        running.watchdog = systemd.watchdogInterval.map { interval in
            RepeatingTimer(interval: interval) { sink.yield(.watchdog) }
        }
    }

    /// One turn of the loop: sleeps until gpsd's socket or the mailbox has something (or `timeout` seconds pass),
    /// then takes it in order (docs/ARCHITECTURE.md "One loop"). Returns chestd's exit status when it must stop.
    func step(timeout: Double? = nil) -> Int32? {
        // Track points waiting to be written, and gpsd's socket resting after a read, bound the sleep: no timer
        // thread for either (TrackRecorder.swift, Daemon+GPS.swift).
        let now = clock.monotonic()
        let trackDue = track.writeDeadline
        let gps = gpsToPoll(at: now)
        let wakeAt = Self.earliest(Self.earliest(trackDue, gps.restsUntil), timeout.map { now + $0 })
        let wake = sink.wait(orReadable: gps.descriptor, timeout: wakeAt.map { $0 - now })
        if wake.readable { readGPS() }
        for event in wake.events {
            if let status = handle(event) { return status }
        }
        if let trackDue, case let now = clock.monotonic(), now >= trackDue { logTrackFailure(track.flush(at: now)) }
        return nil
    }

    /// Stops what `start` set running, in the reverse order; does nothing when it did not start.
    func finish() {
        guard running.started else { return }
        running.started = false
        running.watchdog?.stop()
        running.gps?.stop()
        chestWatcher?.stop()
        rejectedWatcher?.stop()
        huntLink.stop()
        sealWorker?.stop()
        logTrackFailure(track.flush(at: clock.monotonic()))
        [wakeTimer, weatherTimer, fixTimer, rescanTimer, memoryTimer].forEach { $0?.stop() }
        running.server?.stop()
        running.signals?.stop()
        chestLock?.release()
        running = Running()
    }

    /// Reacts to one event from an adapter; returns chestd's exit status when it must stop.
    func handle(_ event: DaemonEvent) -> Int32? {
        switch event {
        case let .signal(received) where received.number == SIGHUP:
            log.info("\(received.description): reloading the settings and rescanning the chest")
            feed(.settingsRead(nil, readSettings()))
        case let .signal(received):
            log.notice("stopping on \(received.description)")
            systemd.stopping()
            for client in clients.values { client.close() }
            return 0
        case let .chest(change):
            handleChestChange(change)
        case let .rejectedChanged(.arrived(names)):
            retryRejected(names)
        case .rejectedChanged(.directoryGone):
            // The lock file's open descriptor keeps the chest directory's inode alive, so its own watch may
            // not hear it go: rejected/, which nothing holds open, does.
            handleChestChange(.directoryGone)
        case .rejectedChanged:
            break
        case .releaseRareMemory:
            releaseRareMemory()
        case .rescan:
            rescanPlanned = false
            recoverStaged()
            if chestNeedsRestore { restoreChest() } else if isWatching { rescanInbox() } else { watchChest() }
            if (try? store.stagedNames())?.isEmpty == true && isWatching && !rescanPlanned { rescanBackoff = 0 }
        case let .request(connection, line):
            handleRequest(line, on: connection)
        case let .clientGone(client):
            clients.removeValue(forKey: client)
            feed(.clientGone(client))
        case let .gps(event):
            handleGPS(event)
        case let .gpsConnection(connection):
            gpsConnection = connection
        case .wake:
            feed(.tick(now()))
        case let .pinChecked(id, pin, matching):
            feed(.pinChecked(id, pin: pin, matching: matching, now()))
        case let .notified(id, page, delivered):
            if delivered { feed(.delivered(id, page: page)) }
        case .watchdog:
            systemd.watchdog()
        case let .weatherFetched(result):
            feed(weather.record(result, now: now()))
        case let .keyDerived(request, result, proofKey):
            feed(.keyDerived(request, result, now(), proofKey: proofKey))
        case let .hunt(event):
            handleHunt(event)
        }
        return nil
    }

    /// The loop's clock (`Adapters.clock`).
    var clock: any LoopClock { adapters.clock }

    /// Both clocks, sampled together.
    func now() -> Now { clock.now() }
}
