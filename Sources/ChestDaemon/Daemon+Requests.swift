import ChestCore
import ChestIO
import Foundation

extension Daemon {
    /// Answers one control request. Replies are built from the engine, like ntpd's `build_show_status`.
    func handleRequest(_ line: Data, on connection: ControlConnection) {
        let request: ControlRequest
        do {
            request = try JSONDecoder().decode(ControlRequest.self, from: line)
        } catch {
            log.warning("control socket: malformed request refused")
            return reply(connection, error: "malformed request: expected one JSON object such as {\"op\":\"status\"}")
        }
        let now = now()
        switch request.op {
        case .status:
            let notes = [engine.weatherProblem.map { "weather: \($0)" }, engine.weather?.attribution].compactMap { $0 }
            reply(connection, engine.status(now: now, notes: notes))
        case .list:
            reply(connection, engine.list(chest: request.saved == true ? .saved : .regular))
        case .read:
            withMessage(request, connection) { id in
                if let report = engine.read(id, now: now) { reply(connection, report) }
            }
        case .pin:
            withMessage(request, connection) { id in
                guard pendingPINs[id] == nil else {
                    return reply(connection, error: "another PIN attempt on this message is being checked; try again")
                }
                pendingPINs[id] = connection
                perform(engine.handle(.pinAttempt(id, page: request.page, pin: request.pin ?? "", now)))
            }
        case .save:
            withMessage(request, connection) { id in save(id, connection) }
        case .delete:
            withMessage(request, connection) { id in delete(id, connection) }
        case .import:
            importFile(request.path ?? "", connection)
        case .fix:
            guard let fix = engine.lastFix, fix.position != nil, fix.isFresh(at: now.monotonic) else {
                let why = engine.gps.connected ? "the receiver has no fix yet" : "gpsd is not connected"
                return reply(connection, error: "no GPS fix available (\(why)); wait for a fix (chest status) or type the position")
            }
            reply(connection, fix)
        case .watch:
            let id = ObjectIdentifier(connection)
            watchers[id] = connection
            let sink = self.sink
            connection.onClose { sink.yield(.watcherGone(id)) }
            connection.send(ChestJSON.line(ControlReply(result: Empty())))
            for event in engine.undelivered { emit(event) }
        }
    }

    private func save(_ id: MessageID, _ connection: ControlConnection) {
        guard let stored = engine.entries[id] else { return }
        guard stored.chest == .regular else { return reply(connection, error: "\(id.short) is already in the saved chest") }
        let saved = engine.entries.values.count { $0.chest == .saved }
        guard saved < ChestKind.savedLimit else {
            return reply(connection, error: "the saved chest is full (\(ChestKind.savedLimit) messages); delete one first with `chest delete ID`")
        }
        do {
            try store.move(id, from: .regular, to: .saved)
        } catch {
            return reply(connection, error: "cannot save \(id.short): \(error)")
        }
        perform(engine.handle(.moved(id, to: .saved)))
        emit(.moved(id, title: stored.message.title, to: .saved))
        reply(connection, ImportResult(id: id.rawValue, title: stored.message.title))
    }

    private func delete(_ id: MessageID, _ connection: ControlConnection) {
        guard let stored = engine.entries[id] else { return }
        do {
            try store.delete(id, from: stored.chest)
        } catch {
            return reply(connection, error: "cannot delete \(id.short): \(error)")
        }
        perform(engine.handle(.removed(id)))
        emit(.moved(id, title: stored.message.title, to: nil))
        reply(connection, ImportResult(id: id.rawValue, title: stored.message.title))
    }

    /// `chest import FILE`: the same checks as a file dropped in the inbox, answered to the caller.
    private func importFile(_ path: String, _ connection: ControlConnection) {
        guard path.hasPrefix("/") else { return reply(connection, error: "import needs an absolute path") }
        let read: Result<Data, ChestError>
        if let data = FileManager.default.contents(atPath: path) {
            read = data.count > MessageFile.sizeLimit
                ? .failure(ChestError(MessageFormatError.tooLarge(size: data.count, limit: MessageFile.sizeLimit).description))
                : .success(data)
        } else {
            read = .failure(ChestError("cannot read \(path)"))
        }
        switch validate(read) {
        case let .failure(error):
            reply(connection, error: error.description)
        case let .success((message, bytes)):
            if let existing = engine.entries[message.id] { return reply(connection, error: duplicateReason(existing, of: message)) }
            let state = MessageState(ingestedAt: Date())
            do {
                try store.add([(message, bytes)])
            } catch {
                return reply(connection, error: "cannot store the message: \(error)")
            }
            refreshIdentity()
            let stored = StoredMessage(message: message, state: state, chest: .regular, sentByYou: isOwn(message))
            perform(engine.handle(.added([stored], announce: true, now())))
            reply(connection, ImportResult(id: message.id.rawValue, title: message.title))
        }
    }

    /// Resolves the request's ID (or unique prefix) and runs `body` with it, or replies why it cannot.
    private func withMessage(_ request: ControlRequest, _ connection: ControlConnection, _ body: (MessageID) -> Void) {
        let prefix = (request.id ?? "").lowercased()
        guard !prefix.isEmpty, prefix.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            return reply(connection, error: "\"\(request.id ?? "")\" is not a message ID; see `chest list`")
        }
        let matches = engine.ids(matching: prefix)
        switch matches.count {
        case 0: reply(connection, error: "no message \(prefix) in the chest; see `chest list` and `chest list --saved`")
        case 1: body(matches[0])
        default:
            reply(connection, error: "\(prefix) matches \(matches.count) messages (\(matches.prefix(3).map(\.short).joined(separator: ", "))…); type more of the ID")
        }
    }

    func reply<T: Codable & Sendable>(_ connection: ControlConnection, _ result: T) {
        connection.send(ChestJSON.line(ControlReply(result: result)), thenClose: true)
    }

    func reply(_ connection: ControlConnection, error: String) {
        connection.send(ChestJSON.line(ControlReply<Empty>(error: error)), thenClose: true)
    }
}
