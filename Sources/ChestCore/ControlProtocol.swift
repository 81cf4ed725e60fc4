import struct Foundation.Data

/// One request on the control socket: a single JSON line (docs/DESIGN.md "Reliability and security").
public struct ControlRequest: Hashable, Sendable, Codable {
    public enum Operation: String, Hashable, Sendable, Codable {
        case list, read, pin, save, delete, status, watch, `import`, fix, unsave, undelete
        /// Read the settings again and rescan the chest, as SIGHUP does; answered by the daemon itself.
        case reload
    }

    public var op: Operation
    /// A message ID or a unique prefix of one.
    public var id: String?
    public var saved: Bool?
    public var pin: String?
    public var page: Int?
    /// An absolute path, for `import`.
    public var path: String?

    public init(op: Operation, id: String? = nil, saved: Bool? = nil, pin: String? = nil, page: Int? = nil,
                path: String? = nil) {
        self.op = op
        self.id = id
        self.saved = saved
        self.pin = pin
        self.page = page
        self.path = path
    }

    /// Requests longer than this are refused unread (docs/DESIGN.md "Reliability and security").
    public static let sizeLimit = 16 * 1024
}

/// One reply line: either a result or an error sentence.
public struct ControlReply<Result: Codable & Sendable>: Sendable, Codable {
    public var ok: Bool
    public var error: String?
    public var result: Result?

    public init(result: Result) {
        ok = true
        self.result = result
    }

    public init(error: String) {
        ok = false
        self.error = error
    }
}

/// No result beyond success.
public struct Empty: Hashable, Sendable, Codable {
    public init() {}
}

/// The result of `import`: the message taken in.
public struct ImportResult: Hashable, Sendable, Codable {
    public var id: MessageID
    public var title: String

    public init(id: MessageID, title: String) {
        self.id = id
        self.title = title
    }
}

/// One control connection, numbered by the daemon.
public struct ClientID: Hashable, Sendable {
    public let rawValue: Int

    public init(_ rawValue: Int) { self.rawValue = rawValue }
}

/// The engine's answer to a request.
public enum Reply: Hashable, Sendable {
    case status(StatusReport)
    case list([ListItem])
    case read(ReadReport)
    case pin(PINOutcome)
    /// `import`, `save`, `delete`: the message concerned.
    case message(ImportResult)
    case fix(Fix)
    /// `watch`: the connection stays open and hears every event from now on.
    case subscribed
    case failure(String)

    /// The reply line as it goes on the socket.
    public var line: Data {
        switch self {
        case let .status(report): ChestJSON.line(ControlReply(result: report))
        case let .list(items): ChestJSON.line(ControlReply(result: items))
        case let .read(report): ChestJSON.line(ControlReply(result: report))
        // `chest pin` succeeds only when the PIN was accepted; every other outcome is an error that says why.
        case let .pin(.accepted(latched, opened)): ChestJSON.line(ControlReply(result: PINOutcome.accepted(latched: latched, opened: opened)))
        case .pin(.kept): ChestJSON.line(ControlReply(result: PINOutcome.kept))
        case let .pin(outcome): ChestJSON.line(ControlReply<Empty>(error: outcome.text))
        case let .message(result): ChestJSON.line(ControlReply(result: result))
        case let .fix(fix): ChestJSON.line(ControlReply(result: fix))
        case .subscribed: ChestJSON.line(ControlReply(result: Empty()))
        case let .failure(reason): ChestJSON.line(ControlReply<Empty>(error: reason))
        }
    }
}
