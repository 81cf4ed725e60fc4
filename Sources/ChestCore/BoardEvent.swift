import struct Foundation.Date

/// One line of `chest board --json` (docs/HUNTS.md "The board"): a flat object named by its `event` field,
/// fields absent when unknown, times in ISO 8601, like `chest watch --json`.
public enum BoardEvent: Codable, Hashable, Sendable {
    /// A team's state changed (status heard, or a page opened): `{"event":"team","team":…,"online":…,
    /// "lastHeard":…,"trust":…,"pages":N}`.
    case team(name: String, online: Bool?, lastHeard: Date?, trust: FixTrust.Level?, pages: Int)
    /// A page credited: `{"event":"unlock","team":…,"message":…,"title":…,"page":…,"openedAt":…,"trust":…,
    /// "receivedAt":…,"proof":…,"reachedAt":…}`. `openedAt`, `trust` and `reachedAt` (when the page's place was
    /// reached, absent without one) are the team's claims; `receivedAt` is the board's clock; `proof` is "proven", or
    /// "unproven: guarded page".
    case unlock(team: String, message: MessageID, title: String, page: Int, openedAt: Date, trust: FixTrust.Level,
                receivedAt: Date, proof: String, reachedAt: Date? = nil)
    /// A message refused (`reason`: a `HuntGate.Refusal` or a `HuntBoard.Refusal`), with the team its topic names
    /// when it names a team of the hunt, and why in words.
    case refused(reason: String, team: String?, why: String)

    public init(from decoder: any Decoder) throws {
        let line = try Line(from: decoder)
        func need<T>(_ value: T?, _ field: String) throws -> T {
            try ChestJSON.required(value, field, event: line.event, in: decoder)
        }
        switch line.event {
        case "team":
            self = .team(name: try need(line.team, "team"), online: line.online, lastHeard: line.lastHeard,
                         trust: line.trust, pages: line.pages ?? 0)
        case "unlock":
            self = .unlock(team: try need(line.team, "team"), message: try need(line.message, "message"),
                           title: line.title ?? "", page: try need(line.page, "page"),
                           openedAt: try need(line.openedAt, "openedAt"), trust: try need(line.trust, "trust"),
                           receivedAt: try need(line.receivedAt, "receivedAt"), proof: line.proof ?? "",
                           reachedAt: line.reachedAt)
        case "refused":
            self = .refused(reason: try need(line.reason, "reason"), team: line.team, why: line.why ?? "")
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "unknown event \(line.event)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try Line(self).encode(to: encoder)
    }

    /// The event as one compact JSON line (without the newline).
    public var line: String { String(decoding: ChestJSON.line(self), as: UTF8.self) }

    private struct Line: Codable {
        var event: String
        var team: String?
        var online: Bool?
        var lastHeard: Date?
        var trust: FixTrust.Level?
        var pages: Int?
        var message: MessageID?
        var title: String?
        var page: Int?
        var openedAt: Date?
        var reachedAt: Date?
        var receivedAt: Date?
        var proof: String?
        var reason: String?
        var why: String?

        init(_ event: BoardEvent) {
            switch event {
            case .team(let name, let online, let lastHeard, let trust, let pages):
                self.event = "team"
                team = name
                self.online = online
                self.lastHeard = lastHeard
                self.trust = trust
                self.pages = pages
            case .unlock(let team, let message, let title, let page, let openedAt, let trust, let receivedAt, let proof, let reachedAt):
                self.event = "unlock"
                self.team = team
                self.message = message
                self.title = title
                self.page = page
                self.openedAt = openedAt
                self.trust = trust
                self.receivedAt = receivedAt
                self.proof = proof
                self.reachedAt = reachedAt
            case .refused(let reason, let team, let why):
                self.event = "refused"
                self.reason = reason
                self.team = team
                self.why = why
            }
        }
    }
}
