import struct FoundationEssentials.Date

/// One line of `chest board --json` (docs/HUNTS.md "The board"): a flat object named by its `event` field,
/// fields absent when unknown, times in ISO 8601, like `chest watch --json`.
package enum BoardEvent: Codable, Hashable, Sendable {
    /// A team's score (docs/HUNTS.md "Points"): its points, and the parts they are made of besides its pages.
    package struct Score: Codable, Hashable, Sendable {
        package var points: Int
        /// How many hints the board gave the team, and what they cost.
        package var hints: Int
        package var hintCost: Int
        /// The sum of the organiser's adjustments.
        package var adjustments: Int

        package init(points: Int, hints: Int, hintCost: Int, adjustments: Int) {
            self.points = points
            self.hints = hints
            self.hintCost = hintCost
            self.adjustments = adjustments
        }
    }

    /// A team's state changed (status heard, a page opened, a hint given, an adjustment): `{"event":"team","team":…,
    /// "online":…,"lastHeard":…,"trust":…,"points":N,"pages":N,"hints":N,"hintCost":N,"adjustments":N}`.
    case team(name: String, online: Bool?, lastHeard: Date?, trust: FixTrust.Level?, pages: Int, points: Score? = nil)
    /// A page credited: `{"event":"unlock","team":…,"message":…,"title":…,"page":…,"openedAt":…,"trust":…,
    /// "receivedAt":…,"proof":…,"reachedAt":…}`. `openedAt`, `trust` and `reachedAt` (when the page's place was
    /// reached, absent without one) are the team's claims; `receivedAt` is the board's clock; `proof` is "proven",
    /// "proven: reached before the start" (its points withheld), or
    /// "unproven: guarded page".
    case unlock(
        team: String, message: MessageID, title: String, page: Int, openedAt: Date, trust: FixTrust.Level,
        receivedAt: Date, proof: String, reachedAt: Date? = nil)
    /// A message refused (`reason`: a `HuntGate.Refusal` or a `HuntBoard.Refusal`), with the team its topic names
    /// when it names a team of the hunt, and why in words.
    case refused(reason: String, team: String?, why: String)
    /// A hint given to a team (docs/HUNTS.md "Hints"): `{"event":"hint","team":…,"message":…,"page":…,"hint":…,
    /// "cost":…,"charged":…,"receivedAt":…}`; `charged` is false when the team had it already and asked again.
    case hint(team: String, message: String, page: Int, hint: Int, cost: Int, charged: Bool, receivedAt: Date)
    /// The organiser's adjustment (docs/HUNTS.md "Adjustments"): `{"event":"adjusted","team":…,"points":…,
    /// "reason":…,"receivedAt":…}`.
    case adjusted(team: String, points: Int, reason: String, receivedAt: Date)
    /// A team's question (docs/HUNTS.md "A team's question, a word to one team"): `{"event":"asked","team":…,
    /// "text":…,"id":…,"receivedAt":…}`; `id` is the team's for it.
    case asked(team: String, text: String, id: UInt64, receivedAt: Date)
    /// A team's submission for a mission page, waiting to be judged (docs/HUNTS.md "Missions"): `{"event":
    /// "submitted","team":…,"message":…,"page":…,"kind":…,"id":…,"receivedAt":…}`; `kind` is png, jpeg, webp or text.
    case submitted(team: String, message: MessageID, page: Int, kind: String, id: UInt64, receivedAt: Date)
    /// The organiser's verdict on a submission: `{"event":"judged","team":…,"message":…,"page":…,"accepted":…,
    /// "points":…,"reason":…,"receivedAt":…}`.
    case judged(
        team: String, message: MessageID, page: Int, accepted: Bool, points: Int, reason: String, receivedAt: Date)

    package init(from decoder: any Decoder) throws {
        let line = try Line(from: decoder)
        func need<T>(_ value: T?, _ field: String) throws -> T {
            try ChestJSON.required(value, field, event: line.event, in: decoder)
        }
        switch line.event {
        case "team":
            let score = line.points.map {
                Score(
                    points: $0, hints: line.hints ?? 0, hintCost: line.hintCost ?? 0,
                    adjustments: line.adjustments ?? 0)
            }
            self = .team(
                name: try need(line.team, "team"), online: line.online, lastHeard: line.lastHeard,
                trust: line.trust, pages: line.pages ?? 0, points: score)
        case "unlock":
            self = .unlock(
                team: try need(line.team, "team"), message: try need(line.message, "message"),
                title: line.title ?? "", page: try need(line.page, "page"),
                openedAt: try need(line.openedAt, "openedAt"), trust: try need(line.trust, "trust"),
                receivedAt: try need(line.receivedAt, "receivedAt"), proof: line.proof ?? "",
                reachedAt: line.reachedAt)
        case "refused":
            self = .refused(reason: try need(line.reason, "reason"), team: line.team, why: line.why ?? "")
        case "hint":
            self = .hint(
                team: try need(line.team, "team"), message: try need(line.message, "message").rawValue,
                page: try need(line.page, "page"), hint: try need(line.hint, "hint"), cost: line.cost ?? 0,
                charged: line.charged ?? false, receivedAt: try need(line.receivedAt, "receivedAt"))
        case "adjusted":
            self = .adjusted(
                team: try need(line.team, "team"), points: try need(line.points, "points"),
                reason: line.reason ?? "", receivedAt: try need(line.receivedAt, "receivedAt"))
        case "asked":
            self = .asked(
                team: try need(line.team, "team"), text: try need(line.text, "text"), id: try need(line.id, "id"),
                receivedAt: try need(line.receivedAt, "receivedAt"))
        case "submitted":
            self = .submitted(
                team: try need(line.team, "team"), message: try need(line.message, "message"),
                page: try need(line.page, "page"), kind: try need(line.kind, "kind"), id: try need(line.id, "id"),
                receivedAt: try need(line.receivedAt, "receivedAt"))
        case "judged":
            self = .judged(
                team: try need(line.team, "team"), message: try need(line.message, "message"),
                page: try need(line.page, "page"), accepted: try need(line.accepted, "accepted"),
                points: line.points ?? 0, reason: line.reason ?? "", receivedAt: try need(line.receivedAt, "receivedAt")
            )
        default:
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "unknown event \(line.event)"))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        try Line(self).encode(to: encoder)
    }

    /// The event as one compact JSON line (without the newline).
    package var line: String { String(decoding: ChestJSON.line(self), as: UTF8.self) }

    private struct Line: Codable {
        var event: String
        var team: String?
        var online: Bool?
        var lastHeard: Date?
        var trust: FixTrust.Level?
        var pages: Int?
        var points: Int?
        var hints: Int?
        var hintCost: Int?
        var adjustments: Int?
        var hint: Int?
        var cost: Int?
        var charged: Bool?
        var message: MessageID?
        var title: String?
        var page: Int?
        var openedAt: Date?
        var reachedAt: Date?
        var receivedAt: Date?
        var proof: String?
        var reason: String?
        var why: String?
        var text: String?
        var id: UInt64?
        var kind: String?
        var accepted: Bool?

        init(_ event: BoardEvent) {
            switch event {
            case .team(let name, let online, let lastHeard, let trust, let pages, let score):
                self.event = "team"
                team = name
                self.online = online
                self.lastHeard = lastHeard
                self.trust = trust
                self.pages = pages
                points = score?.points
                hints = score?.hints
                hintCost = score?.hintCost
                adjustments = score?.adjustments
            case .unlock(
                let team, let message, let title, let page, let openedAt, let trust, let receivedAt, let proof,
                let reachedAt):
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
            case .hint(let team, let message, let page, let hint, let cost, let charged, let receivedAt):
                self.event = "hint"
                self.team = team
                self.message = MessageID(message)
                self.page = page
                self.hint = hint
                self.cost = cost
                self.charged = charged
                self.receivedAt = receivedAt
            case .adjusted(let team, let points, let reason, let receivedAt):
                self.event = "adjusted"
                self.team = team
                self.points = points
                self.reason = reason
                self.receivedAt = receivedAt
            case .asked(let team, let text, let id, let receivedAt):
                self.event = "asked"
                self.team = team
                self.text = text
                self.id = id
                self.receivedAt = receivedAt
            case .submitted(let team, let message, let page, let kind, let id, let receivedAt):
                self.event = "submitted"
                (self.team, self.message, self.page, self.kind) = (team, message, page, kind)
                (self.id, self.receivedAt) = (id, receivedAt)
            case .judged(let team, let message, let page, let accepted, let points, let reason, let receivedAt):
                self.event = "judged"
                (self.team, self.message, self.page, self.accepted) = (team, message, page, accepted)
                (self.points, self.reason, self.receivedAt) = (points, reason, receivedAt)
            }
        }
    }
}
