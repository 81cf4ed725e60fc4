/// One request on the control socket: a single JSON line (SPEC §5).
public struct ControlRequest: Hashable, Sendable, Codable {
    public enum Operation: String, Hashable, Sendable, Codable {
        case list, read, pin, save, delete, status, watch, `import`, fix
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

    /// Requests longer than this are refused unread (SPEC §5).
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
    public var id: String
    public var title: String

    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }
}
