import struct FoundationEssentials.Data

/// One request on the control socket: a single JSON line (docs/DESIGN.md "Reliability and security").
package enum ControlRequest: Hashable, Sendable {
    /// The messages of the chest, or of the saved chest.
    case list(saved: Bool)
    /// One message; `id` is a message ID or a unique prefix of one, as in every case below.
    case read(id: String)
    /// A PIN for the message, for one page or every page waiting for one.
    case pin(id: String, pin: String, page: Int?)
    /// An answer to a page's question, for one page or every page waiting for one (docs/FORMAT.md "Answer locks").
    case answer(id: String, text: String, page: Int?)
    case save(id: String)
    case unsave(id: String)
    case delete(id: String)
    /// The last deleted message, or this one.
    case undelete(id: String?)
    case status
    /// Every event from now on, on this connection.
    case watch
    /// chestd's current qualified fix.
    case fix
    /// A message file at an absolute path.
    case `import`(path: String)
    /// Read the settings again and rescan the chest, as SIGHUP does.
    case reload
    /// The settings chestd runs with, and where each came from.
    case config
    /// Asks for the next hint still closed of a page (the first page with one when `page` is nil), docs/FORMAT.md "Hints".
    case hint(id: String, page: Int?)
    /// A team's question to the hunt's organiser (docs/HUNTS.md "A team's question, a word to one team").
    case ask(text: String)
    /// A team's photo (a file at an absolute path, read by chestd) or text for a mission page (docs/HUNTS.md
    /// "Missions"): exactly one of `path` and `text`.
    case submit(id: String, page: Int, text: String?, path: String?)

    /// The operations, as the wire's `op` names them.
    package enum Operation: String, Hashable, Sendable, Codable {
        case list, read, pin, save, delete, status, watch, `import`, fix, unsave, undelete, reload, config, hint,
            answer, ask, submit
    }

    package var operation: Operation {
        switch self {
        case .list: .list
        case .read: .read
        case .pin: .pin
        case .answer: .answer
        case .save: .save
        case .unsave: .unsave
        case .delete: .delete
        case .undelete: .undelete
        case .status: .status
        case .watch: .watch
        case .fix: .fix
        case .import: .import
        case .reload: .reload
        case .config: .config
        case .hint: .hint
        case .ask: .ask
        case .submit: .submit
        }
    }

    /// Requests longer than this are refused unread (docs/DESIGN.md "Reliability and security").
    package static let sizeLimit = 16 * 1024
}

/// The wire form: `{"op": "pin", "id": "…", "pin": "4821", "page": 2}`, one object a line (docs/DESIGN.md
/// "Commands and output"); a field an operation does not take is ignored, one it needs is asked for by name.
extension ControlRequest: Codable {
    private enum Key: String, CodingKey { case op, id, saved, pin, page, path, text }

    /// Why a well-formed line is not a request.
    package struct Refusal: Error, CustomStringConvertible {
        package let description: String
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let operation = try container.decode(Operation.self, forKey: .op)
        func required(_ key: Key) throws -> String {
            guard let value = try container.decodeIfPresent(String.self, forKey: key) else {
                throw Refusal(description: "the request \"\(operation.rawValue)\" needs \"\(key.rawValue)\"")
            }
            return value
        }
        switch operation {
        case .list: self = .list(saved: try container.decodeIfPresent(Bool.self, forKey: .saved) ?? false)
        case .read: self = .read(id: try required(.id))
        case .pin:
            self = .pin(
                id: try required(.id), pin: try required(.pin),
                page: try container.decodeIfPresent(Int.self, forKey: .page))
        case .answer:
            self = .answer(
                id: try required(.id), text: try required(.text),
                page: try container.decodeIfPresent(Int.self, forKey: .page))
        case .save: self = .save(id: try required(.id))
        case .unsave: self = .unsave(id: try required(.id))
        case .delete: self = .delete(id: try required(.id))
        case .undelete: self = .undelete(id: try container.decodeIfPresent(String.self, forKey: .id))
        case .status: self = .status
        case .watch: self = .watch
        case .fix: self = .fix
        case .import: self = .import(path: try required(.path))
        case .reload: self = .reload
        case .config: self = .config
        case .hint: self = .hint(id: try required(.id), page: try container.decodeIfPresent(Int.self, forKey: .page))
        case .ask: self = .ask(text: try required(.text))
        case .submit:
            guard let page = try container.decodeIfPresent(Int.self, forKey: .page) else {
                throw Refusal(description: "the request \"submit\" needs \"page\"")
            }
            let text = try container.decodeIfPresent(String.self, forKey: .text)
            let path = try container.decodeIfPresent(String.self, forKey: .path)
            guard (text == nil) != (path == nil) else {
                throw Refusal(description: "the request \"submit\" needs one of \"text\" and \"path\"")
            }
            self = .submit(id: try required(.id), page: page, text: text, path: path)
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(operation, forKey: .op)
        switch self {
        case let .list(saved): if saved { try container.encode(true, forKey: .saved) }
        case let .read(id), let .save(id), let .unsave(id), let .delete(id): try container.encode(id, forKey: .id)
        case let .pin(id, pin, page):
            try container.encode(id, forKey: .id)
            try container.encode(pin, forKey: .pin)
            try container.encodeIfPresent(page, forKey: .page)
        case let .answer(id, text, page):
            try container.encode(id, forKey: .id)
            try container.encode(text, forKey: .text)
            try container.encodeIfPresent(page, forKey: .page)
        case let .ask(text): try container.encode(text, forKey: .text)
        case let .submit(id, page, text, path):
            try container.encode(id, forKey: .id)
            try container.encode(page, forKey: .page)
            try container.encodeIfPresent(text, forKey: .text)
            try container.encodeIfPresent(path, forKey: .path)
        case let .undelete(id): try container.encodeIfPresent(id, forKey: .id)
        case let .import(path): try container.encode(path, forKey: .path)
        case let .hint(id, page):
            try container.encode(id, forKey: .id)
            try container.encodeIfPresent(page, forKey: .page)
        case .status, .watch, .fix, .reload, .config: break
        }
    }
}

/// One reply line: either a result or an error sentence.
package struct ControlReply<Result: Codable & Sendable>: Sendable, Codable {
    package var ok: Bool
    package var error: String?
    package var result: Result?

    package init(result: Result) {
        ok = true
        self.result = result
    }

    package init(error: String) {
        ok = false
        self.error = error
    }
}

/// No result beyond success.
package struct Empty: Hashable, Sendable, Codable {
    package init() {}
}

/// The result of `import`: the message taken in.
package struct ImportResult: Hashable, Sendable, Codable {
    package var id: MessageID
    package var title: String
    /// Set when the message replaced an older version of itself: what happened to the reader's progress.
    package var replaced: String?
    /// Set when another sender's message in the chest has the message's ID: the chest ID it is filed under instead
    /// (docs/SECURITY.md "Round five (issue 61)"), or what was set aside because of it.
    package var note: String?

    package init(id: MessageID, title: String) {
        self.id = id
        self.title = title
    }
}

/// One control connection, numbered by the daemon.
package struct ClientID: Hashable, Sendable {
    package let rawValue: Int

    package init(_ rawValue: Int) { self.rawValue = rawValue }
}

/// The engine's answer to a request.
package enum Reply: Hashable, Sendable {
    case status(StatusReport)
    case list([ListItem])
    case read(ReadReport)
    case pin(PINOutcome)
    /// `chest answer`: the same outcomes as a PIN's.
    case answer(PINOutcome)
    /// `import`, `save`, `delete`: the message concerned.
    case message(ImportResult)
    case fix(Fix)
    /// `reload`: what the reader should know of the settings read again.
    case notes([String])
    /// `config`: the settings chestd runs with.
    case settings(EffectiveSettings)
    /// `watch`: the connection stays open and hears every event from now on.
    case subscribed
    case failure(String)
    /// What `chest hint` got: the hint opened, or asked of the hunt's organiser.
    case hint(HintAnswer)

    /// The reply line as it goes on the socket, times in `timeZone` (chestd's own).
    package func line(timeZone: Zone) -> Data {
        switch self {
        case let .status(report): ChestJSON.line(ControlReply(result: report))
        case let .list(items): ChestJSON.line(ControlReply(result: items))
        case let .read(report): ChestJSON.line(ControlReply(result: report))
        // `chest pin` succeeds only when the PIN was accepted; every other outcome is an error that says why.
        case let .pin(.accepted(latched, opened)):
            ChestJSON.line(ControlReply(result: PINOutcome.accepted(latched: latched, opened: opened)))
        case .pin(.kept): ChestJSON.line(ControlReply(result: PINOutcome.kept))
        case let .pin(outcome): ChestJSON.line(ControlReply<Empty>(error: outcome.text(timeZone: timeZone)))
        case let .answer(.accepted(latched, opened)):
            ChestJSON.line(ControlReply(result: PINOutcome.accepted(latched: latched, opened: opened)))
        case .answer(.kept): ChestJSON.line(ControlReply(result: PINOutcome.kept))
        case let .answer(outcome):
            ChestJSON.line(ControlReply<Empty>(error: outcome.text(for: "answer", timeZone: timeZone)))
        case let .message(result): ChestJSON.line(ControlReply(result: result))
        case let .fix(fix): ChestJSON.line(ControlReply(result: fix))
        case let .notes(notes): ChestJSON.line(ControlReply(result: notes))
        case let .settings(settings): ChestJSON.line(ControlReply(result: settings))
        case .subscribed: ChestJSON.line(ControlReply(result: Empty()))
        case let .hint(answer): ChestJSON.line(ControlReply(result: answer))
        case let .failure(reason): ChestJSON.line(ControlReply<Empty>(error: reason))
        }
    }
}
