import ChestCore
import ChestIO
import ChestMQTT
import ChestSeal
import Foundation
import Synchronization

/// `chest-bench city`: the teams of a city hunt on the real wire (scripts/bench-city.py, docs/BENCHMARKS.md "A city").
/// Every team of the organiser's hunt file is its own MQTT client, over TLS with its own user name and password, and
/// sends what a team's chestd sends: a retained status claiming its reader, a signed receipt with a real proof for
/// each page of the hunt's messages (composed with `compose --hunt`, so their page keys are in the file), and a
/// position every 30 s (an OwnTracks location, not retained). One thread per client (libmosquitto's loop).
/// `--shard I/N` takes the teams whose index is I modulo N: libmosquitto's loop waits with select(2), which cannot
/// watch a descriptor above 1,023, so one process holds at most about 300 clients (three descriptors each; beyond
/// that, connections fail as "Protocol error" on the broker).
///
/// Writes one line per receipt to the log, `sent TEAM MESSAGE PAGE UNIXTIME`, taken just before the publish, for the
/// latency to the board's `unlock` line; prints `city-teams: …` lines on standard output as it goes.
enum CityBench {
    struct Options {
        var hunt = ""
        var caFile = ""
        var brokers: [(host: String, port: Int)] = []
        /// Seconds over which every team's receipts are spread.
        var spread = 60.0
        /// Seconds between a team's positions and statuses.
        var positionEvery = 30.0
        /// Teams that start connecting per second.
        var connectRate = 250.0
        var log = "/dev/null"
        /// Seconds to keep sending positions after the last receipt was acknowledged.
        var linger = 0.0
        var shard = 0
        var shards = 1
        /// Only the hunt's first `teams` teams are honest ones (the rest: a flooding team's).
        var teams: Int?
        /// The index of the team that floods instead (`--flood`), and for how long at most.
        var flood: Int?
        var duration = 600.0
        /// `--on not-an-id`: the flood is signed statuses on receipt topics whose last level is no id (issue 61).
        var notAnID = false
        /// `--count N`: the flood ends after N messages; `--rate R`: at most R a second.
        var floodCount: Int?
        var floodRate: Double?
        /// A file whose existence starts the receipts: every process starts them together once every team of every
        /// process is connected and has sent its first status (as a hunt's teams are connected before its start).
        var go: String?
    }

    static let usage =
        "chest-bench city HUNT CAFILE HOST:PORT[,HOST:PORT…] [--spread S] [--connect-rate N] [--linger S] [--log FILE] [--shard I/N] [--teams N] [--go FILE] | --flood INDEX [--duration S] [--on not-an-id] [--count N] [--rate R]"

    static func main(_ arguments: [String]) {
        guard arguments.count >= 3 else { fatalError(usage) }
        var options = Options(hunt: arguments[0], caFile: arguments[1])
        options.brokers = arguments[2].split(separator: ",").map { part in
            let pieces = part.split(separator: ":")
            return (String(pieces[0]), Int(pieces[1])!)
        }
        var rest = arguments.dropFirst(3).makeIterator()
        while let option = rest.next() {
            switch option {
            case "--spread": options.spread = rest.next().flatMap(Double.init) ?? options.spread
            case "--connect-rate": options.connectRate = rest.next().flatMap(Double.init) ?? options.connectRate
            case "--linger": options.linger = rest.next().flatMap(Double.init) ?? options.linger
            case "--log": options.log = rest.next() ?? options.log
            case "--teams": options.teams = rest.next().flatMap { Int($0) }
            case "--go": options.go = rest.next()
            case "--flood": options.flood = rest.next().flatMap { Int($0) }
            case "--duration": options.duration = rest.next().flatMap(Double.init) ?? options.duration
            case "--on":
                guard rest.next() == "not-an-id" else { fatalError(usage) }
                options.notAnID = true
            case "--count": options.floodCount = rest.next().flatMap { Int($0) }
            case "--rate": options.floodRate = rest.next().flatMap(Double.init)
            case "--shard":
                let parts = (rest.next() ?? "").split(separator: "/").compactMap { Int($0) }
                guard parts.count == 2, parts[1] > 0, (0..<parts[1]).contains(parts[0]) else { fatalError(usage) }
                (options.shard, options.shards) = (parts[0], parts[1])
            default: fatalError(usage)
            }
        }
        if let flood = options.flood { return Self.flood(options, team: flood) }
        run(options)
    }

    /// One page a team will open: the message, its page number and the proof key made from its page key.
    struct Page {
        var id: MessageID
        var page: Int
        var title: String
        var proofKey: String
        var signature: String
    }

    final class Team: @unchecked Sendable {
        let team: HuntTeam
        let reader: Identity
        let index: Int
        var client: MQTTClient?
        let state = Mutex(State())
        struct State {
            var connected = false
            var everConnected = false
            var unacknowledged: Set<Int32> = []
        }

        init(team: HuntTeam, reader: Identity, index: Int) {
            self.team = team
            self.reader = reader
            self.index = index
        }
    }

    static func run(_ options: Options) {
        let hunt = try! HuntFile.read(path: options.hunt)
        let pages = (hunt.messages ?? [:]).sorted { $0.key < $1.key }.flatMap { id, message in
            message.pages.enumerated().map { index, page in
                Page(
                    id: id, page: index + 1, title: message.title,
                    proofKey: Data(ReceiptProof.key(pageKey: [UInt8](Data(base64Encoded: page.key)!)))
                        .base64EncodedString(),
                    signature: Data(Sealer.randomBytes(64)).base64EncodedString())
            }
        }
        guard !pages.isEmpty else { fatalError("\(options.hunt) has no messages composed for it (compose --hunt)") }
        let readers = try! Directory.makeTemporary("chest-city-readers")
        defer { try? FileManager.default.removeItem(atPath: readers) }
        let honest = hunt.teams.prefix(options.teams ?? hunt.teams.count)
        let teams = honest.enumerated().filter { $0.offset % options.shards == options.shard }.map { index, team in
            Team(team: team, reader: try! Identity.loadOrCreate(at: "\(readers)/\(index).json"), index: index)
        }
        let log = Mutex(FileHandle(forWritingAtPath: options.log) ?? FileHandle.nullDevice)
        let connectedCount = Mutex(0)
        let acknowledged = Mutex(0)
        let sent = Mutex(0)
        let start = Date()

        // Connect, a few hundred teams a second: Mosquitto handles TLS handshakes one at a time.
        for team in teams {
            let broker = options.brokers[team.index % options.brokers.count]
            var mqtt = MQTTOptions(
                clientID: "city-\(team.team.name)", host: broker.host, port: broker.port, tls: true,
                caFile: options.caFile, username: team.team.name.rawValue, password: team.team.password)
            mqtt.keepAlive = 60
            let client = try! MQTTClient(mqtt) { [team] event in
                switch event {
                case .connected:
                    let first = team.state.withLock { state -> Bool in
                        state.connected = true
                        defer { state.everConnected = true }
                        return !state.everConnected
                    }
                    if first { connectedCount.withLock { $0 += 1 } }
                case .disconnected, .connectionRefused:
                    team.state.withLock { $0.connected = false }
                case let .delivered(id):
                    let was = team.state.withLock { $0.unacknowledged.remove(id) != nil }
                    if was { acknowledged.withLock { $0 += 1 } }
                default: break
                }
            }
            client.subscribe(HuntTopic.releases(hunt: hunt.id))
            team.client = client
            // A few handshakes at a time: libmosquitto's loop spins while its TLS handshake is under way, so
            // hundreds at once on a busy machine starve the broker and each other into timeouts.
            waitUntil("a connection slot", deadline: 600) {
                team.index / options.shards - connectedCount.withLock { $0 } < 4
            }
            client.start()
            Thread.sleep(forTimeInterval: 1 / options.connectRate)
        }
        let everyone = teams.count
        waitUntil("every team connected", deadline: 600) { connectedCount.withLock { $0 } == everyone }
        print(String(format: "city-teams: %d connected over TLS in %.1f s", everyone, Date().timeIntervalSince(start)))
        fflush(nil)

        // A status each, as chestd sends on connecting.
        for team in teams { publish(status(team, hunt: hunt, count: 1), team) }
        if let go = options.go {
            print("city-teams: ready")
            fflush(nil)
            waitUntil("the go file \(go)", deadline: 900) { FileManager.default.fileExists(atPath: go) }
        }

        // The receipts, spread evenly over `spread` seconds in a shuffled order, with positions every 30 s.
        var schedule: [(team: Team, page: Int)] = []
        for page in pages.indices { for team in teams { schedule.append((team, page)) } }
        var generator = SeededGenerator(seed: 33)
        schedule.shuffle(using: &generator)
        let receiptsStart = Date()
        // Each team's position every `positionEvery` seconds, the teams spread over that time as real ones are.
        var positionsSent = 0
        func sendDuePositions() {
            let due = Int(Date().timeIntervalSince(receiptsStart) / options.positionEvery * Double(teams.count))
            while positionsSent < due {
                sendPosition(teams[positionsSent % teams.count], hunt: hunt, round: positionsSent / teams.count + 1)
                positionsSent += 1
            }
        }
        for (number, entry) in schedule.enumerated() {
            let due = receiptsStart.addingTimeInterval(options.spread * Double(number) / Double(schedule.count))
            while Date() < due {
                sendDuePositions()
                Thread.sleep(forTimeInterval: min(0.01, max(0, due.timeIntervalSinceNow)))
            }
            let page = pages[entry.page]
            let message = receiptMessage(entry.team, page: page, index: entry.page, hunt: hunt)
            let when = Date().timeIntervalSince1970
            if publish(message, entry.team, tracked: true) {
                sent.withLock { $0 += 1 }
                log.withLock {
                    $0.write(
                        Data(
                            "sent \(entry.team.team.name) \(page.id.rawValue) \(page.page) \(String(format: "%.6f", when))\n"
                                .utf8))
                }
            }
        }
        let total = sent.withLock { $0 }
        print(
            String(
                format: "city-teams: %d receipts published in %.1f s", total, Date().timeIntervalSince(receiptsStart)))
        fflush(nil)
        waitUntil("every receipt acknowledged by the broker", deadline: 300) { acknowledged.withLock { $0 } >= total }
        print("city-teams: \(total) receipts acknowledged")
        fflush(nil)
        let lingerEnd = Date().addingTimeInterval(options.linger)
        while Date() < lingerEnd {
            sendDuePositions()
            Thread.sleep(forTimeInterval: 0.05)
        }
        for team in teams { team.client?.stop() }
        print("city-teams: sent \(total)")
        fflush(nil)
    }

    /// Publishes, retrying while the team's client is between connections; with `tracked`, counts its PUBACK.
    @discardableResult
    static func publish(_ message: MQTTMessage, _ team: Team, tracked: Bool = false) -> Bool {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            // The lock is held across the publish so that its PUBACK (on the client's thread) finds the id.
            let done = team.state.withLock { state -> Bool in
                guard let id = try? team.client?.publish(message) else { return false }
                if tracked { state.unacknowledged.insert(id) }
                return true
            }
            if done { return true }
            Thread.sleep(forTimeInterval: 0.2)
        }
        FileHandle.standardError.write(Data("city-teams: \(team.team.name) could not publish for 2 minutes\n".utf8))
        return false
    }

    static func waitUntil(_ what: String, deadline seconds: Double, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else {
                FileHandle.standardError.write(
                    Data("city-teams: gave up waiting for \(what) after \(Int(seconds)) s\n".utf8))
                exit(1)
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
}
