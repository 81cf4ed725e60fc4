import struct Foundation.Date

/// The organiser's view of a hunt (docs/HUNTS.md "The board"): every team of the hunt file, whether it is
/// online, the pages it was credited with and when the board heard of them, the hints it was given and the
/// organiser's adjustments, and so its points (docs/HUNTS.md "Points"), and what was refused and why. Pure: fed
/// envelopes the gate accepted, in arrival order, by `BoardCore`, with what ChestSeal made of their signatures and
/// proofs.
/// A receipt is credited only when its message was composed for this hunt, its page exists, its proof checks and
/// its reader key is one the team claimed (docs/HUNTS.md "What the board credits"). What a receipt claims (its
/// `openedAt`, its trust) is shown as claimed and never orders anything.
public struct HuntBoard: Codable, Sendable {
    /// What the organiser's page keys say of a receipt's proof (`ReceiptProof.check`, in ChestSeal).
    public enum ProofCheck: Hashable, Sendable {
        /// The hunt file has no page keys for the message: it was not composed for this hunt with `--hunt`.
        case unknownMessage
        /// The message has this many pages; the receipt names another.
        case noSuchPage(Int)
        /// The receipt carries no proof.
        case missing
        /// The proof was not made with the page's key.
        case bad
        /// Made with the page's key, which only whoever opened the page could recover.
        case proven
        /// Made with the key of a guarded page: it proves only that the file was held.
        case guarded
    }

    public struct OpenedPage: Codable, Hashable, Sendable {
        public var message: MessageID
        public var title: String
        public var page: Int
        /// When the reader says its chestd opened it: its claim, shown, never used for order.
        public var openedAt: Date
        /// The trust the receipt claims for the fixes that opened it.
        public var trust: FixTrust.Level
        /// When the board heard of it: what the ranking goes by.
        public var receivedAt: Date
        /// False for a guarded page: its proof shows only that the file was held.
        public var proven: Bool
        /// Where the receipt's confirming fixes were, oldest first, when the hunt shares positions: the team's claim,
        /// shown on the board's map, never used for anything else.
        public var positions: [Coordinate] = []
        /// When the receipt says the page's place was reached (its third confirming fix): the team's claim, earlier
        /// than `openedAt` when the place's key came late.
        public var reachedAt: Date?
        /// The points it was credited with: the page's worth when proven, 0 for a guarded page (docs/HUNTS.md
        /// "Points").
        public var points: Int = 0
    }

    /// A hint the board gave a team, charged once (docs/HUNTS.md "Hints").
    public struct GivenHint: Codable, Hashable, Sendable {
        public var message: String
        public var page: Int
        public var hint: Int
        /// The points it cost.
        public var cost: Int
        /// When the board heard the first request for it.
        public var receivedAt: Date
    }

    /// The organiser's bonus or deduction (docs/HUNTS.md "Adjustments").
    public struct Adjustment: Codable, Hashable, Sendable {
        public var points: Int
        public var reason: String
        /// When the board heard it.
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
        /// The latest trust the team reported, or its latest receipt claimed.
        public var trust: FixTrust.Level?
        /// In the order the board heard of them; a page heard twice (another receipt for it) counts once.
        public var pages: [OpenedPage]
        /// The last `failureLimit` refusals and bad receipts on this team's topics, oldest first.
        public var failed: [Failure]
        /// Every refusal on this team's topics, by reason (`failed` keeps only the latest few).
        public var refusals: [String: Int] = [:]
        /// The reader keys the team claimed (`TeamStatus.reader`), base64.
        public var readers: [String] = []
        /// The reader key of the latest status or receipt that claimed one for this team: the key a hint is sealed to.
        public var reader: String?
        /// The hints the board gave the team, in the order it first gave them.
        public var hints: [GivenHint] = []
        /// The organiser's adjustments, in the order the board heard them.
        public var adjustments: [Adjustment] = []

        /// The team's score: its credited pages' points, less its hints' costs, plus the organiser's adjustments.
        public var points: Int { pagePoints - hintCost + adjusted }
        /// The points of its credited pages.
        public var pagePoints: Int { pages.reduce(0) { $0 + $1.points } }
        /// The points its hints cost.
        public var hintCost: Int { hints.reduce(0) { $0 + $1.cost } }
        /// The sum of the organiser's adjustments.
        public var adjusted: Int { adjustments.reduce(0) { $0 + $1.points } }
        /// Whether the team has a place in the ranking: something credited, given or adjusted.
        public var isRanked: Bool { !pages.isEmpty || !hints.isEmpty || !adjustments.isEmpty }
        /// When the board heard of the team's last point (a proven page, a bonus): the ranking's tie-break; nil until
        /// the team gained one.
        public var lastPointAt: Date? {
            (pages.filter { $0.points > 0 }.map(\.receivedAt) + adjustments.filter { $0.points > 0 }.map(\.receivedAt)).max()
        }
        /// When the board heard the team reach where it stands: its last point, or for a team that never gained one, its
        /// last credited page (guarded pages give none).
        public var reachedAt: Date? { lastPointAt ?? reachedCount }

        /// When the board heard of the team's latest credited page: the ranking's tie-break.
        public var reachedCount: Date? { pages.map(\.receivedAt).max() }
        /// The latest `openedAt` the team claims among its credited pages.
        public var claimedCount: Date? { pages.map(\.openedAt).max() }
        /// Where the team's credited receipts say it was, in the order the board heard them (empty unless the hunt
        /// shares positions).
        public var trail: [Coordinate] { pages.flatMap(\.positions) }
    }

    /// Failures kept per team: enough to see what goes wrong, bounded against a flood of forgeries.
    public static let failureLimit = 50

    public let hunt: HuntID
    private var order: [String]
    private var byName: [String: Team]
    /// Reader key → the team that claimed it first: a key plays for one team.
    private var readerTeams: [String: String] = [:]
    /// The signature of each credited receipt → its team: seen again on another team's topic, it is refused.
    private var credited: [String: String] = [:]

    /// Every team of the file, listed before any is heard.
    public init(hunt: HuntFile) {
        self.hunt = hunt.id
        order = hunt.teams.map(\.name)
        byName = Dictionary(hunt.teams.map { ($0.name, Team(name: $0.name, pages: [], failed: [])) }) { first, _ in first }
    }

    /// Takes in an accepted envelope. For a receipt: `receiptProblem` is nil when the receipt's own signature
    /// verified (`ReceiptSigner.verify`), else why not; `proof` is what the page keys say of its proof. For a
    /// status or a receipt: `claimedReader` is the reader key whose claim to play for the sender it carries and that
    /// signed that claim (`ReaderClaim.claimedReader`), or nil.
    /// `worth` is what the receipt's page is worth when proven (`HuntMessage.PageKey.worth`).
    public mutating func record(_ envelope: HuntEnvelope, receiptProblem: String?, proof: ProofCheck = .missing,
                                claimedReader: String? = nil, worth: Int = 1, receivedAt: Date) -> [BoardEvent] {
        guard var team = byName[envelope.sender] else { return [] }
        team.lastHeard = receivedAt
        var events: [BoardEvent] = []
        claim: if let reader = claimedReader, envelope.kind == .status || envelope.kind == .receipt {
            if let owner = readerTeams[reader], owner != team.name {
                // A receipt of that reader is refused below, as wrongReader, for this same reason.
                guard envelope.kind == .status else { break claim }
                let why = "\(envelope.kind.rawValue) \(envelope.id): reader key \(Self.short(reader)) already plays for team \(owner)"
                events += refuse(.wrongReader, why, team: &team, at: receivedAt)
            } else {
                if readerTeams[reader] == nil {
                    readerTeams[reader] = team.name
                    team.readers.append(reader)
                }
                team.reader = reader
            }
        }
        switch envelope.body {
        case let .status(status):
            team.online = status.online
            if let trust = status.trust { team.trust = trust }
        case let .receipt(receipt, _):
            if let (refusal, why) = judge(receipt, proof: proof, receiptProblem: receiptProblem, team: team.name) {
                events += refuse(refusal, "receipt \(envelope.id): " + why, team: &team, at: receivedAt)
            } else if !team.pages.contains(where: { $0.message == receipt.message && $0.page == receipt.page }) {
                if let signature = receipt.signature { credited[signature] = team.name }
                let opened = OpenedPage(message: receipt.message, title: receipt.title, page: receipt.page,
                                        openedAt: receipt.openedAt, trust: receipt.evidence.trust.level,
                                        receivedAt: receivedAt, proven: proof == .proven,
                                        positions: receipt.evidence.fixes.compactMap(Self.position),
                                        reachedAt: receipt.evidence.reachedAt, points: proof == .proven ? worth : 0)
                team.pages.append(opened)
                team.trust = opened.trust
                events.append(.unlock(team: team.name, message: opened.message, title: opened.title, page: opened.page,
                                      openedAt: opened.openedAt, trust: opened.trust, receivedAt: receivedAt,
                                      proof: opened.proven ? "proven" : "unproven: guarded page", reachedAt: opened.reachedAt))
            } else if let signature = receipt.signature {
                credited[signature] = team.name
            }
        case .release, .hintRequest, .hint, .adjust, .schedule, .said:
            return []
        }
        byName[team.name] = team
        events.append(Self.event(team))
        return events
    }

    /// Takes in the organiser's adjustment (an envelope the gate accepted); nothing for a team not in the hunt.
    public mutating func recordAdjustment(_ adjustment: HuntAdjustment, receivedAt: Date) -> [BoardEvent] {
        guard var team = byName[adjustment.team] else {
            return [.refused(reason: Refusal.unknownTeam.rawValue, team: nil,
                             why: "an adjustment for \(TerminalText.escaped(adjustment.team)), not a team of this hunt")]
        }
        team.adjustments.append(Adjustment(points: adjustment.points, reason: adjustment.reason, receivedAt: receivedAt))
        byName[team.name] = team
        return [.adjusted(team: team.name, points: adjustment.points, reason: adjustment.reason, receivedAt: receivedAt),
                Self.event(team)]
    }

    /// Refuses a team's request for a hint because this board cannot sign as the organiser.
    public mutating func refuseHintRequest(team name: String, id: UInt64, at: Date) -> [BoardEvent] {
        guard var team = byName[name] else { return [] }
        team.lastHeard = at
        let events = refuse(.cannotAnswer, "hint request \(id): this board does not run with the organiser's identity, "
                            + "so it cannot sign the answer", team: &team, at: at)
        byName[name] = team
        return events
    }

    /// What the board does with a team's request for a hint.
    public enum HintDecision: Hashable, Sendable {
        /// Answer it: seal the hint's key to `reader`. `charged` is false when the team had it already.
        case answer(reader: String, cost: Int, charged: Bool)
        /// Answer nothing: the refusal was recorded.
        case refuse
    }

    /// Takes in a team's request (an envelope the gate accepted) for the hint of the organiser's file that
    /// `cost` (nil: the page has no such hint) says. Charges the cost the first time the team is given that hint.
    public mutating func recordHintRequest(team name: String, _ request: HuntHintRequest, id: UInt64, cost: Int?,
                                           receivedAt: Date) -> (HintDecision, [BoardEvent]) {
        guard var team = byName[name] else { return (.refuse, []) }
        team.lastHeard = receivedAt
        let asked = "hint request \(id): hint \(request.hint) of \(request.message.prefix(8)) page \(request.page)"
        guard let cost else {
            let events = refuse(.noSuchHint, asked + " is not in the organiser's file", team: &team, at: receivedAt)
            byName[name] = team
            return (.refuse, events)
        }
        guard let reader = team.reader else {
            let events = refuse(.noReader, asked + ": the team's reader key is not known yet (no status heard)", team: &team,
                                at: receivedAt)
            byName[name] = team
            return (.refuse, events)
        }
        let given = team.hints.contains { $0.message == request.message && $0.page == request.page && $0.hint == request.hint }
        if !given {
            team.hints.append(GivenHint(message: request.message, page: request.page, hint: request.hint, cost: cost,
                                        receivedAt: receivedAt))
        }
        byName[name] = team
        let event = BoardEvent.hint(team: name, message: request.message, page: request.page, hint: request.hint, cost: cost,
                                    charged: !given, receivedAt: receivedAt)
        return (.answer(reader: reader, cost: cost, charged: !given), [event, Self.event(team)])
    }

    /// Why a receipt is not credited to `team`, or nil when it is: in this order, so that the first thing wrong
    /// is the reason shown.
    private func judge(_ receipt: UnlockReceipt, proof: ProofCheck, receiptProblem: String?,
                       team: String) -> (Refusal, String)? {
        if let receiptProblem { return (.badReceipt, receiptProblem) }
        if let signature = receipt.signature, let owner = credited[signature], owner != team {
            return (.wrongTopic, "the receipt of team \(owner)'s reader for \(receipt.message.short) page \(receipt.page), sent again by another team")
        }
        switch proof {
        case .unknownMessage: return (.unknownMessage, "message \(receipt.message.short) was not composed for this hunt (compose --hunt)")
        case let .noSuchPage(count): return (.unknownMessage, "message \(receipt.message.short) has \(count) pages, not a page \(receipt.page)")
        case .missing: return (.noProof, "no proof of opening for \(receipt.message.short) page \(receipt.page)")
        case .bad: return (.badProof, "the proof for \(receipt.message.short) page \(receipt.page) was not made with the page's key")
        case .proven, .guarded: break
        }
        guard readerTeams[receipt.reader] == team else {
            let owner = readerTeams[receipt.reader].map { "team \($0)'s" } ?? "not a reader key the team claimed"
            return (.wrongReader, "reader key \(Self.short(receipt.reader)) is \(owner)")
        }
        return nil
    }

    /// The board's own reasons for refusing a receipt the gate accepted (docs/HUNTS.md "What the board credits").
    public enum Refusal: String, Codable, Sendable, CaseIterable {
        /// The receipt's own signature does not verify.
        case badReceipt
        /// The message was not composed for this hunt, or has no such page.
        case unknownMessage
        case noProof
        case badProof
        /// The reader key is not one this team claimed (or it is another team's).
        case wrongReader
        /// A receipt credited to another team, sent again on this team's topic.
        case wrongTopic
        /// A hint request for a hint the organiser's file does not have.
        case noSuchHint
        /// A hint request before the board knows a reader key of the team to seal the hint to.
        case noReader
        /// An adjustment for a team that is not in the hunt.
        case unknownTeam
        /// A hint request to a board that cannot sign as the organiser.
        case cannotAnswer
    }

    private mutating func refuse(_ refusal: Refusal, _ why: String, team: inout Team, at: Date) -> [BoardEvent] {
        Self.append(Failure(reason: refusal.rawValue + ": " + why, at: at), to: &team)
        team.refusals[refusal.rawValue, default: 0] += 1
        return [.refused(reason: refusal.rawValue, team: team.name, why: why)]
    }

    static func short(_ key: String) -> String { String(key.prefix(8)) }

    private static func position(_ fix: UnlockEvidence.ConfirmingFix) -> Coordinate? {
        guard let latitude = fix.latitude, let longitude = fix.longitude else { return nil }
        let position = Coordinate(latitude: latitude, longitude: longitude)
        return position.isValid ? position : nil
    }

    /// Takes in a refusal by the gate; the team is the one the topic names, when it is a team of the hunt.
    public mutating func recordRefusal(_ refusal: HuntGate.Refusal, topic: String, at: Date) -> [BoardEvent] {
        var name: String?
        switch HuntTopic.parse(topic, hunt: hunt) {
        case .receipt(let team, _)?, .status(let team)?, .hintRequest(let team, _)?: name = team
        default: name = nil
        }
        let why = "\(Self.words(refusal)) on \(topic)"
        guard let name, var team = byName[name] else { return [.refused(reason: refusal.rawValue, team: nil, why: why)] }
        Self.append(Failure(reason: refusal.rawValue + ": " + why, at: at), to: &team)
        team.refusals[refusal.rawValue, default: 0] += 1
        byName[name] = team
        return [.refused(reason: refusal.rawValue, team: name, why: why)]
    }

    /// The team a topic of this hunt names, when it is one of its teams.
    public func team(named topic: String) -> String? {
        switch HuntTopic.parse(topic, hunt: hunt) {
        case .receipt(let team, _)?, .status(let team)?, .hintRequest(let team, _)?: byName[team] == nil ? nil : team
        default: nil
        }
    }

    /// Adds refusals the journal kept only as counts (docs/HUNTS.md "The board's journal") to a team's count.
    public mutating func countRefusals(_ reason: String, team name: String, _ count: Int) {
        guard count > 0, var team = byName[name] else { return }
        team.refusals[reason, default: 0] += count
        byName[name] = team
    }

    /// Every team, in the hunt file's order.
    public var teams: [Team] { order.compactMap { byName[$0] } }

    /// Most points first, then whose last point the board heard first (never the time a team claims); teams that
    /// never gained a point after those, by pages credited (guarded ones give no points) and whose count the board
    /// heard first; then by name (docs/HUNTS.md "Points").
    public func leaderboard() -> [Team] {
        teams.sorted { a, b in
            if a.points != b.points { return a.points > b.points }
            switch (a.lastPointAt, b.lastPointAt) {
            case let (x?, y?) where x != y: return x < y
            case (_?, nil): return true
            case (nil, _?): return false
            case (nil, nil) where a.pages.count != b.pages.count: return a.pages.count > b.pages.count
            case (nil, nil):
                switch (a.reachedCount, b.reachedCount) {
                case let (x?, y?) where x != y: return x < y
                default: return a.name < b.name
                }
            default: return a.name < b.name
            }
        }
    }

    /// The `chest board --once` table: rank, team, points, pages credited and how many of them are unproven
    /// (guarded), the points its hints cost, the organiser's adjustments, when the board heard the last point, the
    /// time and trust the team claims, online, refusals by reason.
    public func leaderboardText() -> String {
        let header = ["#", "TEAM", "POINTS", "PAGES", "GUARDED", "HINTS", "ADJUSTED", "REACHED", "CLAIMED-OPENED",
                      "CLAIMED-TRUST", "ONLINE", "REFUSED"]
        var rows = [header]
        for (index, team) in leaderboard().enumerated() {
            let unproven = team.pages.count { !$0.proven }
            let refusals = team.refusals.sorted { $0.key < $1.key }.map { "\($0.value)×\($0.key)" }.joined(separator: ",")
            // No rank until something is credited: a team with nothing is not "1st".
            rows.append([team.isRanked ? "\(index + 1)" : "-", TerminalText.escaped(team.name), "\(team.points)",
                         "\(team.pages.count)", "\(unproven)", team.hints.isEmpty ? "0" : "-\(team.hintCost)",
                         team.adjusted > 0 ? "+\(team.adjusted)" : "\(team.adjusted)",
                         team.reachedAt.map(ISO8601.string) ?? "-", team.claimedCount.map(ISO8601.string) ?? "-",
                         team.trust?.rawValue ?? "-", team.online.map { $0 ? "yes" : "no" } ?? "-",
                         refusals.isEmpty ? "0" : refusals])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    private static func event(_ team: Team) -> BoardEvent {
        .team(name: team.name, online: team.online, lastHeard: team.lastHeard, trust: team.trust, pages: team.pages.count,
              points: BoardEvent.Score(points: team.points, hints: team.hints.count, hintCost: team.hintCost, adjustments: team.adjusted))
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
        case .afterEnd: "received after the hunt ended: not credited"
        }
    }
}
