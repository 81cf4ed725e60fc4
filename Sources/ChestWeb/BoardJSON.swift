import ChestCore
import FoundationEssentials

/// `/board.json`: the leaderboard and the latest events as JSON (docs/HUNTS.md "The board in a browser"), in the
/// conventions of `chest board --json`: ISO 8601 times, fields absent when unknown, events as its lines. Paged: at
/// most `perPage` teams a page, `/board.json?page=N` for the rest, so that a request costs a page's rows at a city's
/// scale, not every team's (docs/BENCHMARKS.md "A city").
package enum BoardJSON {
    /// The teams of one page, in rank order.
    package static let perPage = 200

    struct Document: Encodable {
        var hunt: String
        var broker: String
        var connection: String
        var sharePositions: Bool
        /// The hunt's start and end in force (docs/HUNTS.md "The hunt's start and end"); absent when not set.
        var starts: Date?
        var ends: Date?
        /// Each team's time limit in seconds (docs/HUNTS.md "A clock for each team"); absent without one.
        var limit: Int?
        /// This page of the leaderboard (from 1), how many there are, and how many teams they hold.
        var page: Int
        var pages: Int
        var teamCount: Int
        var teams: [Row]
        var latest: [BoardEvent]
        var refused: [BoardEvent]
        var ignored: [String: Int]
        /// The teams' questions, oldest first (docs/HUNTS.md "A team's question, a word to one team").
        var questions: [BoardCore.HeardQuestion]
        /// The submissions for mission pages, waiting oldest first, then those judged (docs/HUNTS.md "Missions").
        var submissions: [Submission]
    }

    /// A submission as `/board.json` lists it: `photo` is the address the board serves the photo at.
    struct Submission: Encodable {
        var team: String
        var message: MessageID
        var page: Int
        var kind: String
        var received: Date
        var id: UInt64
        var digest: String
        var state: String
        var photo: String?
        var text: String?
        var points: Int?
        var reason: String?
        var judged: Date?

        init(_ heard: BoardCore.HeardSubmission) {
            (team, message, page, kind, received) = (
                heard.team, heard.message, heard.page, heard.kind.rawValue, heard.at
            )
            (id, digest, state, text) = (heard.id, heard.digest, heard.state.rawValue, heard.text)
            photo = heard.photoName.map { BoardPage.photoPath + $0 }
            (points, reason, judged) = (heard.points, heard.reason, heard.judgedAt)
        }
    }

    /// The submissions in `/board.json`'s order: those waiting, oldest first, then those judged.
    static func submissions(_ all: [BoardCore.HeardSubmission]) -> [Submission] {
        (all.filter { $0.state == .waiting } + all.filter { $0.state != .waiting }).map(Submission.init)
    }

    struct Row: Encodable {
        /// Absent until the team has a page credited.
        var rank: Int?
        var team: String
        /// The team whose name this one's imitates (docs/SECURITY.md "Known senders"); absent for most teams.
        var lookalikeOf: String?
        var colour: String?
        /// Its score (docs/HUNTS.md "Points"): pages' points, less hints' costs, plus adjustments.
        var points: Int
        var pages: Int
        var guarded: Int
        /// How many of its pages were reached before the hunt's start (no points, docs/HUNTS.md "Points"); absent at 0.
        var early: Int?
        /// How many hints the board gave it, and what they cost.
        var hints: Int
        var hintCost: Int
        /// The sum of the organiser's adjustments, and each with its reason.
        var adjustments: Int
        var adjusted: [Adjusted]
        /// When the board heard of the team's last point: what the ranking goes by after points.
        var reachedAt: Date?
        var claimedOpenedAt: Date?
        /// The trust the team claims now (its latest status or receipt).
        var trust: FixTrust.Level?
        /// The worst and the best trust its credited pages were opened with.
        var openedWith: OpenedWith?
        var online: Bool?
        var lastHeard: Date?
        var refused: [String: Int]
        var position: Coordinate?
        /// The team's own start and when its time runs out (docs/HUNTS.md "A clock for each team"), when it
        /// finished (docs/HUNTS.md "A finish"), and the seconds from its start to its finish; absent when unknown.
        var started: Date?
        var closes: Date?
        var finished: Date?
        var time: Int?
        /// The team's devices (docs/HUNTS.md "Several devices in one team"): name, trust, online, last heard; absent
        /// while none named itself.
        var devices: [HuntBoard.Device]?
    }

    struct Adjusted: Encodable {
        var points: Int
        var reason: String
        var receivedAt: Date
    }

    struct OpenedWith: Encodable {
        var worst: FixTrust.Level
        var best: FixTrust.Level
    }

    /// The first page.
    package static func data(_ snapshot: BoardSnapshot) -> Data { page(snapshot, number: 1)! }

    /// Page `number` (from 1); nil when there is no such page. Every page has the latest events and the counts.
    package static func page(_ snapshot: BoardSnapshot, number: Int) -> Data? {
        page(snapshot, number: number, looks: TeamLooks(snapshot))
    }

    /// The pages a board of `teams` teams has: one at least, even with none.
    package static func pages(teams: Int) -> Int { max(1, (teams + perPage - 1) / perPage) }

    static func page(_ snapshot: BoardSnapshot, number: Int, looks: TeamLooks) -> Data? {
        let colours = looks.colours
        let lookalikes = looks.lookalikes
        let ranked = snapshot.board.leaderboard()
        let ranks = HuntBoard.ranks(ranked)
        let pages = pages(teams: ranked.count)
        guard (1...pages).contains(number) else { return nil }
        let shown = ranked.indices.dropFirst((number - 1) * perPage).prefix(perPage)
        let teams = shown.map { index in
            let team = ranked[index]
            let trusts = team.pages.map(\.trust)
            return Row(
                rank: ranks[index], team: team.name, lookalikeOf: lookalikes[team.name],
                colour: colours[team.name], points: team.points,
                pages: team.pages.count, guarded: team.pages.count { !$0.proven },
                early: team.earlyPages == 0 ? nil : team.earlyPages, hints: team.hints.count,
                hintCost: team.hintCost, adjustments: team.adjusted,
                adjusted: team.adjustments.map {
                    Adjusted(points: $0.points, reason: $0.reason, receivedAt: $0.receivedAt)
                },
                reachedAt: team.reachedAt, claimedOpenedAt: team.claimedCount, trust: team.trust,
                openedWith: trusts.max().map { OpenedWith(worst: $0, best: trusts.min()!) }, online: team.online,
                lastHeard: team.lastHeard, refused: team.refusals,
                position: snapshot.sharePositions ? team.trail.last : nil, started: team.startedAt,
                closes: team.closesAt, finished: team.finishedAt, time: team.time,
                devices: team.devices.isEmpty ? nil : team.devices)
        }
        let document = Document(
            hunt: snapshot.huntName, broker: snapshot.broker.text, connection: snapshot.connection.description,
            sharePositions: snapshot.sharePositions, starts: snapshot.schedule.starts,
            ends: snapshot.schedule.ends, limit: snapshot.schedule.limit, page: number, pages: pages,
            teamCount: ranked.count, teams: teams,
            latest: snapshot.unlocks.map(\.event), refused: snapshot.refusals.map(\.event),
            ignored: snapshot.ignored, questions: snapshot.asked, submissions: submissions(snapshot.submissions))
        return ChestJSON.line(document)
    }
}
