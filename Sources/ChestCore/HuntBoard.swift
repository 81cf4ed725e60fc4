import struct Foundation.Date

/// The organiser's view of a hunt (docs/HUNTS.md "The board"): every team of the hunt file, whether it is
/// online, the pages it opened and when, the trust of its fixes, and what was refused. Pure: fed envelopes the
/// gate accepted, in arrival order. Codable, so that `chest board` keeps it (with `HuntGate.seen`) across runs:
/// receipts are not retained by the broker, so a board that forgot them would not hear them again.
public struct HuntBoard: Codable, Sendable {
    public struct OpenedPage: Codable, Hashable, Sendable {
        public var message: MessageID
        public var title: String
        public var page: Int
        /// When the reader's chestd opened it (its clock, in the signed receipt).
        public var openedAt: Date
        /// The trust of the fixes that opened it, from the receipt's evidence.
        public var trust: FixTrust.Level
        /// When the board heard of it.
        public var receivedAt: Date
    }

    public struct Failure: Codable, Hashable, Sendable {
        public var reason: String
        public var at: Date
    }

    public struct Team: Codable, Hashable, Sendable {
        public var name: String
        /// Nil until a status was heard.
        public var online: Bool?
        public var lastHeard: Date?
        /// The latest trust the team reported, or its latest receipt showed.
        public var trust: FixTrust.Level?
        /// In the order the board heard of them; a page heard twice (another receipt for it) counts once.
        public var pages: [OpenedPage]
        /// The last `failureLimit` refusals and bad receipts on this team's topics, oldest first.
        public var failed: [Failure]

        /// When the team reached its page count: the latest opening among its pages.
        var reachedCount: Date? { pages.map(\.openedAt).max() }
    }

    /// Failures kept per team: enough to see what goes wrong, bounded against a flood of forgeries.
    public static let failureLimit = 50

    public let hunt: String
    private var order: [String]
    private var byName: [String: Team]

    /// Every team of the file, listed before any is heard.
    public init(hunt: HuntFile) {
        self.hunt = hunt.id
        order = hunt.teams.map(\.name)
        byName = Dictionary(hunt.teams.map { ($0.name, Team(name: $0.name, pages: [], failed: [])) }) { first, _ in first }
    }

    /// Takes in an accepted envelope. `receiptProblem`: nil when the inner receipt's signature verified
    /// (`ReceiptSigner.verify`), else why not — the page is then not counted and the failure is shown.
    public mutating func record(_ envelope: HuntEnvelope, receiptProblem: String?, receivedAt: Date) -> [BoardEvent] {
        guard var team = byName[envelope.sender] else { return [] }
        team.lastHeard = receivedAt
        var events: [BoardEvent] = []
        switch envelope.kind {
        case .status:
            guard let status = envelope.status else { return [] }
            team.online = status.online
            if let trust = status.trust { team.trust = trust }
        case .receipt:
            guard let receipt = envelope.receipt else { return [] }
            if let receiptProblem {
                let why = "receipt \(envelope.id): \(receiptProblem)"
                Self.append(Failure(reason: "badReceipt: " + why, at: receivedAt), to: &team)
                events.append(.refused(reason: "badReceipt", team: team.name, why: why))
            } else if !team.pages.contains(where: { $0.message == receipt.message && $0.page == receipt.page }) {
                let opened = OpenedPage(message: receipt.message, title: receipt.title, page: receipt.page,
                                        openedAt: receipt.openedAt, trust: receipt.evidence.trust.level,
                                        receivedAt: receivedAt)
                team.pages.append(opened)
                team.trust = opened.trust
                events.append(.unlock(team: team.name, message: opened.message, title: opened.title, page: opened.page,
                                      openedAt: opened.openedAt, trust: opened.trust))
            }
        case .release:
            return []
        }
        byName[team.name] = team
        events.append(Self.event(team))
        return events
    }

    /// Takes in a refusal by the gate; the team is the one the topic names, when it is a team of the hunt.
    public mutating func recordRefusal(_ refusal: HuntGate.Refusal, topic: String, at: Date) -> [BoardEvent] {
        var name: String?
        switch HuntTopic.parse(topic, hunt: hunt) {
        case .receipt(let team, _)?, .status(let team)?: name = team
        default: name = nil
        }
        let why = "\(Self.words(refusal)) on \(topic)"
        guard let name, var team = byName[name] else { return [.refused(reason: refusal.rawValue, team: nil, why: why)] }
        Self.append(Failure(reason: refusal.rawValue + ": " + why, at: at), to: &team)
        byName[name] = team
        return [.refused(reason: refusal.rawValue, team: name, why: why)]
    }

    /// Every team, in the hunt file's order.
    public var teams: [Team] { order.compactMap { byName[$0] } }

    /// Most pages first, then who reached that count first, then by name.
    public func leaderboard() -> [Team] {
        teams.sorted { a, b in
            if a.pages.count != b.pages.count { return a.pages.count > b.pages.count }
            switch (a.reachedCount, b.reachedCount) {
            case let (x?, y?) where x != y: return x < y
            default: return a.name < b.name
            }
        }
    }

    /// The `chest board --once` table: rank, team, pages, when the count was reached, trust, online, failures.
    public func leaderboardText() -> String {
        let header = ["#", "TEAM", "PAGES", "REACHED", "TRUST", "ONLINE", "FAILED"]
        var rows = [header]
        for (index, team) in leaderboard().enumerated() {
            rows.append(["\(index + 1)", TerminalText.escaped(team.name), "\(team.pages.count)",
                         team.reachedCount.map(ISO8601.string) ?? "-", team.trust?.rawValue ?? "-",
                         team.online.map { $0 ? "yes" : "no" } ?? "-", "\(team.failed.count)"])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    private static func event(_ team: Team) -> BoardEvent {
        .team(name: team.name, online: team.online, lastHeard: team.lastHeard, trust: team.trust, pages: team.pages.count)
    }

    private static func append(_ failure: Failure, to team: inout Team) {
        team.failed.append(failure)
        if team.failed.count > failureLimit { team.failed.removeFirst(team.failed.count - failureLimit) }
    }

    private static func words(_ refusal: HuntGate.Refusal) -> String {
        switch refusal {
        case .malformed: "not a chest hunt message"
        case .otherHunt: "a message for another hunt"
        case .unknownKey: "signed by a key this hunt does not know for its sender"
        case .badSignature: "the signature does not match"
        case .wrongTopic: "the sender or kind does not match the topic"
        case .replayed: "already received"
        }
    }
}
