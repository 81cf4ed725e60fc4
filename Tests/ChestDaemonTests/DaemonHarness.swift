import ChestCore
import ChestGPS
import ChestIO
import ChestMQTT
import ChestSeal
import ChestTestSupport
import Foundation
import Glibc

@testable import ChestDaemon

/// A `Daemon` driven in process, the way swift-nio's EmbeddedChannel drives a pipeline: no signals, no gpsd, a fake
/// broker, gpsd's lines written to a pipe the loop reads, a clock that moves only when the test advances it, and the
/// loop turned by the test until the state it waits for holds (docs/ARCHITECTURE.md "The daemon in process").
final class DaemonHarness {
    struct Stopped: Error, CustomStringConvertible {
        let description: String
    }

    let root: String
    let settings: Settings
    private(set) var daemon: Daemon!
    /// Every broker client the daemon made, newest last.
    private let brokerBox = Box()
    private var gpsWriter: Int32 = -1
    private var gpsReader: Int32 = -1
    /// The daemon's clock: its time locks, timers and fixes' ages move only by `advance(by:)`.
    let clock = ManualClock()
    static let gpsServer = "test:2947"

    final class Box: @unchecked Sendable {
        var brokers: [FakeBroker] = []
    }

    var brokers: [FakeBroker] { brokerBox.brokers }
    var chest: String { settings.chestDirectory }

    init() throws {
        root = "/tmp/chestd-\(UInt32.random(in: 0...UInt32.max))"
        // Private, as chestd asks of its socket's directory.
        try FileManager.default.createDirectory(
            atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createDirectory(atPath: root + "/chest", withIntermediateDirectories: true)
        settings = try Settings(
            environment: ["HOME": root, "XDG_CONFIG_HOME": root + "/config"],
            flags: [.chest: root + "/chest", .socket: root + "/s", .gpsd: "127.0.0.1:9"])
        try FileManager.default.createDirectory(atPath: settings.configDirectory, withIntermediateDirectories: true)
    }

    deinit {
        daemon?.finish()
        if gpsWriter >= 0 { close(gpsWriter) }
        if gpsReader >= 0 { close(gpsReader) }
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Makes the daemon with the fake broker and starts it (the chest loaded, the join file read).
    func start() throws {
        let box = brokerBox
        var adapters = Daemon.Adapters()
        adapters.readsGPSD = false
        adapters.catchesSignals = false
        adapters.clock = clock
        adapters.brokerClient = { options, onEvent in
            let broker = FakeBroker(options, onEvent: onEvent)
            box.brokers.append(broker)
            return broker
        }
        daemon = try Daemon(settings: settings, log: Log(verbose: false), adapters: adapters)
        try daemon.start()
    }

    /// Turns the loop until `condition` holds; throws when it did not within `timeout` seconds, however loaded the
    /// machine, or when the loop stopped.
    func turn(until what: String, timeout: Double = 120, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            guard Date() < deadline else {
                throw Stopped(description: "timed out after \(timeout) s waiting until \(what)")
            }
            if let status = daemon.step(timeout: 0.05) {
                throw Stopped(description: "chestd stopped (\(status)) before \(what)")
            }
        }
    }

    /// Hands the loop a gpsd connection whose lines the test writes (`send`), as GPSReader hands over gpsd's.
    func connectGPS() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw Stopped(description: "pipe: \(errno)") }
        gpsWriter = ends[1]
        gpsReader = ends[0]
        let connection = GPSDConnection(
            server: Self.gpsServer, lines: FileDescriptor(rawValue: ends[0]), log: Log(verbose: false), clock: clock)
        daemon.sink.yield(.gps(.connected(server: Self.gpsServer)))
        daemon.sink.yield(.gpsConnection(connection))
    }

    /// Writes one line of gpsd's to the loop's connection.
    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(gpsWriter, $0.baseAddress, $0.count) }
    }

    /// Moves the daemon's clock `seconds` on: the timers it passes post their events, which the next turns take.
    func advance(by seconds: Double) { clock.advance(by: seconds) }

    /// The GPS time of the last fix `walk` sent: the next is a second later, as the clock is.
    lazy var gpsTime = clock.now().wall.addingTimeInterval(-15)

    /// A 3D fix at `at`, at GPS time `time`.
    static func tpv(_ at: Coordinate, time date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let time = formatter.string(from: date)
        return #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"\#(time)","ept":0.005,"lat":\#(at.latitude),"#
            + #""lon":\#(at.longitude),"altHAE":460.0,"altMSL":410.0,"epx":2.5,"epy":2.5,"epv":4.0,"speed":0.0,"climb":0.0}"#
    }

    /// Sends `count` fixes at `at`, a second apart on the GPS time and on the daemon's clock: each is read by the
    /// loop before the clock moves on to the next.
    func walk(to at: Coordinate, fixes count: Int = 5) throws {
        for _ in 0..<count {
            gpsTime += 1
            send(Self.tpv(at, time: gpsTime))
            try turn(until: "the loop reads the fix") { unreadGPSBytes == 0 }
            advance(by: 1)
        }
    }

    /// Bytes written to the loop's gpsd connection that it has not read yet.
    var unreadGPSBytes: Int32 {
        var count: Int32 = 0
        _ = ioctl(gpsReader, UInt(FIONREAD), &count)
        return count
    }

    /// Sends a request on the control socket, as `chest` does, and turns the loop until the reply comes.
    func call<Result: Codable & Sendable>(_ request: ControlRequest, expecting: Result.Type) throws
        -> ControlReply<Result>
    {
        let client = try ControlClient(socketPath: settings.socketPath)
        try client.send(request)
        var reply: Data?
        try turn(until: "chestd replies to \(request.operation)") {
            reply = try? client.nextLine(timeout: 0.01)
            return reply != nil
        }
        return try ChestJSON.decoder().decode(ControlReply<Result>.self, from: reply ?? Data())
    }

    /// Whether the engine's last fix is within 5 m of `at`.
    func lastFix(isAt at: Coordinate) -> Bool {
        daemon.engine.lastFix?.coordinate.map { $0.distance(to: at) < 5 } == true
    }

    /// The message's state as the loop's engine holds it.
    func openPages(_ id: MessageID) -> [OpenPage] { daemon.engine.entries[id]?.state.openPages ?? [] }

    /// The outbox as it is on disk, read afresh.
    func outboxOnDisk() throws -> [OutboxEntry] { try HuntOutbox(directory: chest + "/outbox").pending }
}

/// The messages and the hunt the tests drop into a harness's chest.
enum DaemonFixture {
    static let target = Coordinate(latitude: 47.3710, longitude: 8.5400)
    static let far = Coordinate(latitude: 47.3600, longitude: 8.5400)

    /// A one-page message from someone else, locked to `target`, dropped into the chest; returns its ID.
    static func dropLocationMessage(_ harness: DaemonHarness) throws -> MessageID {
        let sender = try MessageFactory(configDirectory: harness.root + "/config-sender")
        return MessageID(try sender.drop("near", [.location(center: target, radius: 30)], into: harness.chest))!
    }

    /// A message whose page is sealed to `target`'s cell at the lowest cost, dropped into the chest; with
    /// `hintAfter`, the page has a hint that opens by itself that many seconds after the page became the next goal.
    static func dropSealedMessage(_ harness: DaemonHarness, hintAfter: Int? = nil) throws -> MessageID {
        let sender = try MessageFactory(configDirectory: harness.root + "/config-sender")
        let id = MessageID(bytes: Sealer.randomBytes(16))
        // Format 3 and later lay the grid over a declared search area.
        var random = SystemRandomNumberGenerator()
        let grid = CellGrid(
            area: SearchArea(center: target, radius: 500), radius: 30,
            block: CellGrid.keyBlock(version: MessageFile.baseVersion, withPIN: false), using: &random)
        var page = PageSealer.seal(
            text: "sealed is open",
            setA: .init(locks: [.sealedLocation(grid)], hidden: SearchArea(center: target, radius: 30)),
            setB: .init(locks: []), id: id, page: 1, cost: SealCost(passes: 1, memory: 8 << 20))
        if let hintAfter {
            page.hints = [
                HintSealer.seal(
                    "Look under the bench.", id: id, page: 1, hint: 1, after: hintAfter, cost: nil, keyInFile: true
                ).hint
            ]
        }
        let message = Sealer.seal(
            Message(id: id, title: "sealed", from: "Tester", created: Date(), pages: [page]),
            with: sender.identity)
        try MessageFile.encode(message).write(to: URL(fileURLWithPath: harness.chest + "/sealed.locked"))
        return id
    }

    /// Joins team red of a hunt on a broker the fake stands in for, with the reader's identity made. The hunt's
    /// organiser is the sender of the fixture's messages: only the organiser's messages send receipts.
    static func joinHunt(_ harness: DaemonHarness) throws -> HuntFile {
        _ = try Identity.loadOrCreate(at: harness.settings.identityPath)
        func key(_ byte: UInt8, count: Int = 32) -> String { Data(repeating: byte, count: count).base64EncodedString() }
        let organiser = try MessageFactory(configDirectory: harness.root + "/config-sender").identity.publicKeyBase64
        var hunt = HuntFile(
            id: HuntID("0123456789abcdef0123456789abcdef")!, name: "Old Town",
            broker: BrokerURL("mqtt://127.0.0.1:1883")!, organiser: organiser)
        hunt.teams = [
            HuntTeam(
                name: TeamName("red")!, password: "pw-red-0123456789ab", publicKey: key(0x10),
                secretKey: (Data(repeating: 0xee, count: 32) + Data(repeating: 0x10, count: 32)).base64EncodedString())
        ]
        hunt.team = TeamName("red")!
        try hunt.fileBytes.write(to: URL(fileURLWithPath: HuntLink.joinedPath(harness.settings)))
        return hunt
    }
}
