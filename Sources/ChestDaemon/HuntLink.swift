import ChestCore
import ChestIO
import ChestMQTT
import ChestSeal
import FoundationEssentials
import Glibc

/// chestd's adapter to a hunt (docs/HUNTS.md): the MQTT client, the durable outbox, the signatures and the files
/// the chest keeps of the hunt. It decides nothing: the engine says what to publish and keep (`HuntAction`,
/// Engine+Hunt.swift) and hears what the broker did (`HuntNews`). Used only on the daemon's loop.
final class HuntLink {
    private let chestRoot: String
    let log: Log
    var outbox: HuntOutbox?
    var connection: Connection?
    /// The reader's identity: each status claims its key for the team (`ReaderClaim`), each receipt is signed with it.
    var identity: Identity?
    /// Makes the broker client of each connection (`mosquittoClient` in chestd, a fake in tests).
    private let makeClient: BrokerClientMaker

    /// A joined hunt's broker connection: the team's signing key, and what was handed to libmosquitto.
    struct Connection {
        let hunt: HuntFile
        let team: HuntTeam
        let teamKey: [UInt8]
        let client: any BrokerClient
        let device: String
        var will: HuntStatusPost
        /// Outbox entries handed to libmosquitto, by its message ID, until the broker acknowledges them.
        var inFlight: [Int32: UInt64] = [:]
        var connected = false
        var problem: String?
    }

    init(chestRoot: String, log: Log, makeClient: @escaping BrokerClientMaker = mosquittoClient) {
        self.chestRoot = chestRoot
        self.log = log
        self.makeClient = makeClient
    }

    /// Where `chest hunt join` keeps the join file.
    static func joinedPath(_ settings: Settings) -> String { settings.configDirectory + "/" + HuntFile.joinedFileName }

    private var releaseFile: String { chestRoot + "/releases.json" }
    /// The hint keys the organiser's board gave (docs/HUNTS.md "Hints"), kept as releases are.
    private var hintKeyFile: String { chestRoot + "/hint-keys.json" }

    /// The hint keys kept by an earlier run, for the engine after `.joined`.
    func keptHintKeys() -> HuntNews {
        .hintKeysKept(
            FileManager.default.contents(atPath: hintKeyFile).flatMap {
                try? JSONDecoder().decode([String: String].self, from: $0)
            } ?? [:])
    }
    private var ledgerFile: String { chestRoot + "/" + HuntReceiptLedger.fileName }
    private var wordFile: String { chestRoot + "/" + HuntWord.fileName }

    /// The join file in these settings and what the chest kept of its hunt, for the engine; a broken join file is
    /// logged and counts as none.
    func read(settings: Settings) -> HuntNews {
        let path = Self.joinedPath(settings)
        var file: HuntFile?
        if FileManager.default.fileExists(atPath: path) {
            do {
                file = try HuntFile.read(path: path)
                guard file?.isJoinFile == true else {
                    throw ChestError("it is not a team's join file; join again with chest hunt join FILE")
                }
            } catch {
                log.error("cannot join the hunt in \(path): \(error)")
                file = nil
            }
        }
        guard let file else { return .joined(nil, ledger: nil, releases: [:], outbox: 0) }
        do {
            if outbox == nil { outbox = try HuntOutbox(directory: chestRoot + "/outbox") }
        } catch {
            log.error("hunt: cannot open the outbox: \(error); receipts cannot be sent")
        }
        let ledger = FileManager.default.contents(atPath: ledgerFile).flatMap {
            try? ChestJSON.decoder().decode(HuntReceiptLedger.self, from: $0)
        }
        let releases =
            FileManager.default.contents(atPath: releaseFile).flatMap {
                try? JSONDecoder().decode([String: ReleaseKey].self, from: $0)
            } ?? [:]
        let word = FileManager.default.contents(atPath: wordFile).flatMap {
            try? ChestJSON.decoder().decode(HuntWord.self, from: $0)
        }
        return .joined(file, ledger: ledger, releases: releases, outbox: outbox?.count ?? 0, word: word)
    }

    /// Does what the engine asked; returns what it must hear back.
    func perform(_ action: HuntAction, events: @escaping @Sendable (MQTTEvent) -> Void) -> [HuntNews] {
        switch action {
        case let .connect(hunt, will):
            stop()
            connect(hunt, will: will, events: events)
        case .disconnect:
            stop()
        case let .setWill(will):
            connection?.will = will
            connection.map { $0.client.setWill(willMessage($0)) }
        case let .postStatus(post):
            guard let connection else { return [] }
            var status = post.status
            status.device = connection.device
            if let identity {
                status = ReaderClaim.claim(
                    status, hunt: connection.hunt.id, team: connection.team.name.rawValue, identity: identity)
            }
            _ = append("the team's status") { _ in
                (
                    HuntTopic.status(
                        hunt: connection.hunt.id, team: connection.team.name.rawValue, device: connection.device),
                    sign(
                        HuntEnvelope(
                            hunt: connection.hunt.id, sender: connection.team.name.rawValue, id: post.id, sent: Date(),
                            status: status),
                        connection), true
                )
            }
            flush()
            return [.outbox(outbox?.count ?? 0)]
        case let .postReceipt(receipt, proofKey, link, caughtUp):
            if caughtUp {
                log.notice(
                    "hunt: the receipt of \(link.message.short) page \(link.page) was never sent; sending it now")
            }
            let failure = postReceipt(receipt, proofKey: proofKey, link: link)
            flush()
            return [.receiptPosted(link, failure: failure), .outbox(outbox?.count ?? 0)]
        case let .keepLedger(ledger):
            do {
                try AtomicFile.write(try ChestJSON.encoder().encode(ledger), to: ledgerFile)
            } catch {
                log.error(
                    "hunt: cannot write \(ledgerFile): \(error); a restart may send a receipt twice (the board ignores the copy)"
                )
            }
        case let .requestHint(request):
            return postRequest(
                "the request for hint \(request.hint) of page \(request.page) of \(request.message.short)",
                body: .hintRequest(request)
            ) { HuntTopic.hintRequest(hunt: $0.hunt.id, team: $0.team.name.rawValue, id: $1) }
        case let .ask(question):
            return postRequest("the team's question", body: .ask(question)) {
                HuntTopic.ask(hunt: $0.hunt.id, team: $0.team.name.rawValue, id: $1)
            }
        case let .submit(message, page, content):
            guard let connection else { return [] }
            let what = "the submission for \(message.short) page \(page)"
            let submission: HuntSubmission
            do {
                submission = try Self.sealed(message, page: page, content: content, to: connection.hunt.organiser)
            } catch {
                log.error("hunt: \(what) is not sent: \(error)")
                return []
            }
            return postRequest(what, body: .submit(submission)) {
                HuntTopic.submit(hunt: $0.hunt.id, team: $0.team.name.rawValue, id: $1)
            }
        case let .keepHintKeys(keys):
            do {
                try AtomicFile.write(try JSONEncoder().encode(keys), to: hintKeyFile)
            } catch {
                log.error("hunt: cannot keep the hint keys in the chest: \(error)")
            }
        case let .keepReleases(releases):
            do {
                try AtomicFile.write(try JSONEncoder().encode(releases), to: releaseFile)
            } catch {
                log.error("hunt: cannot keep the releases in the chest: \(error)")
            }
        case let .keepWord(word):
            do {
                try AtomicFile.write(try ChestJSON.encoder().encode(word), to: wordFile)
            } catch {
                log.error("hunt: cannot keep the organiser's word in the chest: \(error); a restart may tell it again")
            }
        }
        return []
    }

    /// Says the team is offline (a clean stop does not fire the will) and disconnects.
    func stop() {
        guard let connection else { return }
        if connection.connected { _ = try? connection.client.publish(willMessage(connection)) }
        connection.client.stop()
        self.connection = nil
    }

    private func connect(_ hunt: HuntFile, will: HuntStatusPost, events: @escaping @Sendable (MQTTEvent) -> Void) {
        guard let name = hunt.team, let team = hunt.team(named: name), let secret = team.secretKey,
            let key = Data(base64Encoded: secret), key.count == 64
        else {
            log.error("hunt: the joined hunt file is not a team's join file; join again with chest hunt join FILE")
            return
        }
        if identity == nil { log.warning("hunt: no identity to sign receipts with; run chest hunt join again") }
        let device = hunt.device ?? HostName.device()
        let broker = hunt.broker
        let options = MQTTOptions(
            clientID: "chest-\(hunt.id.rawValue.prefix(12))-\(team.name)-\(device)", host: broker.host,
            port: broker.port, tls: broker.tls, caFile: hunt.caFile, username: team.name.rawValue,
            password: team.password)
        do {
            let client = try makeClient(options, events)
            let connection = Connection(
                hunt: hunt, team: team, teamKey: [UInt8](key), client: client, device: device, will: will)
            client.setWill(willMessage(connection))
            client.subscribe(HuntTopic.releases(hunt: hunt.id))
            client.subscribe(HuntTopic.hints(hunt: hunt.id, team: team.name.rawValue))
            client.subscribe(HuntTopic.start(hunt: hunt.id, team: team.name.rawValue))
            client.subscribe(HuntTopic.schedule(hunt: hunt.id))
            client.subscribe(HuntTopic.saying(hunt: hunt.id))
            client.subscribe(HuntTopic.toldTo(hunt: hunt.id, team: team.name.rawValue))
            client.subscribe(HuntTopic.verdicts(hunt: hunt.id, team: team.name.rawValue))
            self.connection = connection
            client.start()
        } catch {
            log.error("hunt: cannot connect to \(hunt.broker): \(error)")
            return
        }
        log.notice(
            "hunt \"\(TerminalText.escaped(hunt.name))\": team \(team.name) on \(hunt.broker), \(outbox?.count ?? 0) waiting in the outbox"
        )
    }

    /// Appends one entry to the outbox; logs and returns false when the disk refuses.
    func append(_ what: String, _ make: (UInt64) throws -> (topic: String, payload: Data, retain: Bool)) -> Bool {
        guard let outbox else { return false }
        do {
            _ = try outbox.append(make)
            return true
        } catch {
            log.error("hunt: cannot put \(what) in the outbox: \(error)")
            return false
        }
    }

    /// Sends every outbox entry not yet in flight, oldest first, while connected.
    func flush() {
        guard let client = connection?.client, connection?.connected == true, let outbox else { return }
        let sending = Set(connection?.inFlight.values.map { $0 } ?? [])
        for entry in outbox.pending where !sending.contains(entry.id) {
            do {
                let mid = try client.publish(
                    MQTTMessage(topic: entry.topic, payload: entry.payload, qos: 1, retain: entry.retain))
                connection?.inFlight[mid] = entry.id
            } catch {
                connection?.problem = "\(error)"
                break
            }
        }
    }

    private func willMessage(_ connection: Connection) -> MQTTMessage {
        var status = connection.will.status
        status.device = connection.device
        let envelope = HuntEnvelope(
            hunt: connection.hunt.id, sender: connection.team.name.rawValue, id: connection.will.id, sent: Date(),
            status: status)
        return MQTTMessage(
            topic: HuntTopic.status(
                hunt: connection.hunt.id, team: connection.team.name.rawValue, device: connection.device),
            payload: sign(envelope, connection), qos: 1, retain: true)
    }

    func sign(_ envelope: HuntEnvelope, _ connection: Connection) -> Data {
        HuntSigner.sign(envelope, secretKey: connection.teamKey).bytes
    }
}
