import ChestCore
import ChestIO
import ChestMQTT
import ChestSeal
import Foundation

/// chestd's side of a hunt (docs/HUNTS.md): each unlock's signed receipt, an OwnTracks transition and the team's
/// status go through a durable outbox to the broker, in order, each until the broker acknowledged it; the
/// organiser's releases come back, checked, for the engine. Used only on the daemon's loop.
final class HuntLink {
    let hunt: HuntFile
    let team: HuntTeam
    private let teamKey: [UInt8]
    private let outbox: HuntOutbox
    private let releaseFile: String
    private let device: String
    private let log: Log
    private var client: MQTTClient?
    private var gate: HuntGate
    /// Outbox entries handed to libmosquitto, by its message ID, until the broker acknowledges them.
    private var inFlight: [Int32: UInt64] = [:]
    private var connected = false
    private var problem: String?
    /// This connection's session and the statuses published in it: `TeamStatus.id` orders them and the will.
    private var session: UInt64 = 0
    private var statusCount: UInt64 = 0
    private var lastStatus: TeamStatus?
    /// Releases the organiser published and this link checked, by name (kept in the chest, so a restart without a
    /// broker still knows them).
    private(set) var releases: [String: String]
    private var ledger: HuntReceiptLedger
    private let chestRoot: String
    /// The reader's identity: each status claims its key for the team (`ReaderClaim`), so the board credits its receipts.
    var identity: Identity?

    /// Where `chest hunt join` keeps the join file.
    static func joinedPath(_ settings: Settings) -> String { settings.configDirectory + "/" + HuntFile.joinedFileName }

    /// The link of the hunt joined in these settings, or nil when none was joined.
    static func joined(settings: Settings, chestRoot: String, log: Log) throws -> HuntLink? {
        let path = joinedPath(settings)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try HuntLink(hunt: HuntFile.read(path: path), chestRoot: chestRoot, log: log)
    }

    init(hunt: HuntFile, chestRoot: String, log: Log) throws {
        guard let name = hunt.team, let team = hunt.team(named: name), let secret = team.secretKey,
              let key = Data(base64Encoded: secret), key.count == 64 else {
            throw ChestError("the joined hunt file is not a team's join file; join again with chest hunt join FILE")
        }
        self.hunt = hunt
        self.team = team
        teamKey = [UInt8](key)
        self.log = log
        outbox = try HuntOutbox(directory: chestRoot + "/outbox")
        releaseFile = chestRoot + "/releases.json"
        releases = (FileManager.default.contents(atPath: releaseFile)).flatMap {
            try? JSONDecoder().decode([String: String].self, from: $0)
        } ?? [:]
        gate = HuntGate(hunt: hunt)
        device = Self.deviceName()
        self.chestRoot = chestRoot
        if let kept = HuntReceiptLedger.load(chestRoot: chestRoot, hunt: hunt.id) {
            ledger = kept
        } else {
            // Joining starts now: it is the moment the catch-up counts from, so it is kept at once.
            ledger = HuntReceiptLedger(hunt: hunt.id, since: Date(), sent: [])
            try ledger.save(chestRoot: chestRoot)
        }
    }

    /// Puts in the outbox the receipts of unlocks since joining that never got there (a kill between saving the
    /// page open and this link hearing of it).
    func catchUp(_ entries: some Sequence<StoredMessage>, identity: Identity?, status: TeamStatus) {
        for (stored, open) in ledger.owed(entries) {
            log.notice("hunt: the receipt of \(stored.id.short) page \(open.page) was never sent; sending it now")
            unlocked(stored.message, open: open, identity: identity, status: status)
        }
    }

    /// Connects (in the background, retrying) and reports what happens through `events`.
    func start(events: @escaping @Sendable (MQTTEvent) -> Void) throws {
        let broker = hunt.brokerURL
        var options = MQTTOptions(clientID: "chest-\(hunt.id.prefix(12))-\(team.name)-\(device)", host: broker.host,
                                  port: broker.port, tls: broker.tls, caFile: hunt.caFile, username: team.name,
                                  password: team.password)
        session = newSession()
        options.will = willMessage()
        let client = try MQTTClient(options, onEvent: events)
        client.subscribe(HuntTopic.releases(hunt: hunt.id))
        self.client = client
        client.start()
        log.notice("hunt \"\(TerminalText.escaped(hunt.name))\": team \(team.name) on \(hunt.broker), \(outbox.count) waiting in the outbox")
    }

    /// Says the team is offline (a clean stop does not fire the will) and disconnects.
    func stop() {
        if connected, let client { _ = try? client.publish(willMessage()) }
        client?.stop()
        client = nil
    }

    // MARK: - From the broker

    /// What the broker said; returns the releases to hand to the engine.
    func handle(_ event: MQTTEvent) -> [(name: String, key: String)] {
        switch event {
        case .connected:
            connected = true
            problem = nil
            log.info("hunt: connected to \(hunt.broker)")
            if let lastStatus { queueStatus(lastStatus) }
            flush()
        case let .connectionRefused(why):
            if problem != why { log.error("hunt: \(hunt.broker) refused team \(team.name): \(why)") }
            connected = false
            problem = why
        case let .disconnected(why):
            if connected { log.warning("hunt: lost \(hunt.broker): \(why); receipts wait in the outbox") }
            connected = false
            problem = why
            inFlight.removeAll()
            // The broker published (or will publish) this session's will: the next connection is a new session.
            session = newSession()
            client?.setWill(willMessage())
        case let .delivered(mid):
            guard let id = inFlight.removeValue(forKey: mid) else { break }
            do {
                try outbox.remove(id)
            } catch {
                log.error("hunt: cannot remove outbox entry \(id): \(error); it will be sent again (the board ignores the copy)")
            }
        case let .message(topic, payload, _):
            return release(topic: topic, payload: payload)
        }
        return []
    }

    private func release(topic: String, payload: Data) -> [(name: String, key: String)] {
        let envelope: HuntEnvelope
        do {
            envelope = try HuntEnvelope.decode(payload)
        } catch {
            gate.countMalformed()
            log.warning("hunt: ignored a malformed message on \(TerminalText.escaped(topic)): \(error)")
            return []
        }
        guard case .accepted = gate.admit(envelope, topic: topic, signatureValid: HuntSigner.isValid(envelope)) else {
            log.warning("hunt: ignored a message on \(TerminalText.escaped(topic)) that is not the organiser's")
            return []
        }
        guard envelope.kind == .release, let release = envelope.release else { return [] }
        if releases[release.name] != release.key {
            releases[release.name] = release.key
            do {
                try AtomicFile.write(try JSONEncoder().encode(releases), to: releaseFile)
            } catch {
                log.error("hunt: cannot keep release \(release.name) in the chest: \(error)")
            }
            log.notice("hunt: the organiser released \"\(release.name)\"")
        }
        return [(release.name, release.key)]
    }

    // MARK: - To the broker

    /// Puts an unlock's receipt and its OwnTracks transition in the outbox and sends what the broker can take.
    func unlocked(_ message: Message, open: OpenPage, identity: Identity?, status: TeamStatus) {
        guard let evidence = open.evidence, let signature = message.seal?.signature else { return }
        guard let identity else {
            log.error("hunt: no identity to sign the receipt of \(message.id.short) page \(open.page); run chest hunt join again")
            return
        }
        let unsigned = UnlockReceipt(message: message.id, messageSignature: Data(signature).base64EncodedString(),
                                     title: message.title, page: open.page, set: open.set, openedAt: open.at,
                                     evidence: evidence, reader: "")
        let receipt = ReceiptProof.signed(HuntEnvelope.shareable(unsigned, sharePositions: hunt.sharePositions),
                                          proofKey: open.proofKey, identity: identity)
        do {
            _ = try outbox.append { id in
                (HuntTopic.receipt(hunt: hunt.id, team: team.name, id: id),
                 sign(HuntEnvelope(hunt: hunt.id, sender: team.name, id: id, sent: Date(), receipt: receipt,
                                   readerClaim: ReaderClaim.claim(hunt: hunt.id, team: team.name, identity: identity))), true)
            }
            let transition = OwnTracksTransition(receipt: receipt, huntName: hunt.name, team: team.name,
                                                 sharePositions: hunt.sharePositions)
            _ = try outbox.append { _ in (HuntTopic.ownTracksEvent(team: team.name, device: device), transition.bytes, false) }
            ledger.sent.insert(HuntReceiptLedger.key(message.id, page: open.page))
            try ledger.save(chestRoot: chestRoot)
        } catch {
            log.error("hunt: cannot put the receipt of \(message.id.short) page \(open.page) in the outbox: \(error)")
        }
        update(status)
    }

    /// Publishes the team's status when it changed (retained; newer replaces older in the outbox).
    func update(_ status: TeamStatus) {
        guard status != lastStatus else { return }
        lastStatus = status
        queueStatus(status)
        flush()
    }

    private func queueStatus(_ status: TeamStatus) {
        var status = status
        status.online = true
        if let identity { status = ReaderClaim.claim(status, hunt: hunt.id, team: team.name, identity: identity) }
        statusCount += 1
        let id = TeamStatus.id(session: session, count: statusCount)
        do {
            _ = try outbox.append { _ in
                (HuntTopic.status(hunt: hunt.id, team: team.name),
                 sign(HuntEnvelope(hunt: hunt.id, sender: team.name, id: id, sent: Date(), status: status)), true)
            }
        } catch {
            log.error("hunt: cannot put the team's status in the outbox: \(error)")
        }
    }

    /// The last will: this session is over (docs/HUNTS.md "Team status").
    private func willMessage() -> MQTTMessage {
        let status = TeamStatus(online: false, pagesOpen: lastStatus?.pagesOpen ?? 0)
        let envelope = HuntEnvelope(hunt: hunt.id, sender: team.name, id: TeamStatus.id(session: session, count: nil), sent: Date(),
                                    status: status)
        return MQTTMessage(topic: HuntTopic.status(hunt: hunt.id, team: team.name), payload: sign(envelope), qos: 1, retain: true)
    }

    /// Sends every outbox entry not yet in flight, oldest first, while connected.
    private func flush() {
        guard connected, let client else { return }
        let sending = Set(inFlight.values)
        for entry in outbox.pending where !sending.contains(entry.id) {
            do {
                let mid = try client.publish(MQTTMessage(topic: entry.topic, payload: entry.payload, qos: 1, retain: entry.retain))
                inFlight[mid] = entry.id
            } catch {
                problem = "\(error)"
                break
            }
        }
    }

    private func sign(_ envelope: HuntEnvelope) -> Data { HuntSigner.sign(envelope, secretKey: teamKey).bytes }

    /// The fix mode the last status showed.
    var lastFixMode: Int? { lastStatus?.fixMode }

    /// For `status`.
    var report: HuntLinkStatus {
        HuntLinkStatus(name: hunt.name, hunt: hunt.id, team: team.name, broker: hunt.broker, connected: connected,
                       problem: connected ? nil : problem, outbox: outbox.count,
                       ignored: Dictionary(uniqueKeysWithValues: gate.refused.map { ($0.key.rawValue, $0.value) }),
                       releases: releases.keys.sorted())
    }

    /// A session number above every earlier one of this device: seconds since 1970, and above the last one.
    private func newSession() -> UInt64 {
        statusCount = 0
        return max(session + 1, UInt64(Date().timeIntervalSince1970))
    }

    /// This machine's name as an MQTT topic level (OwnTracks' device).
    private static func deviceName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count)
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .map { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || $0 == "-" ? $0 : "-" }
        return name.isEmpty ? "chest" : String(name.prefix(32))
    }
}
