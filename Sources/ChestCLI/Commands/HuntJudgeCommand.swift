import ChestArguments
import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials

/// `chest hunt judge TEAM MESSAGE PAGE --accept [--points N] [REASON] | --reject REASON --hunt FILE`: the organiser's
/// verdict on what a team submitted for a mission page (docs/HUNTS.md "Missions").
struct HuntJudgeCommand: ChestCommand {
    static let name = "judge"
    static let abstract = "accept or reject what a team submitted for a mission page; an accepted page earns its points"
    static let synopses = [
        "TEAM MESSAGE PAGE --accept [--points N] [REASON] --hunt FILE [--timeout SECONDS]",
        "TEAM MESSAGE PAGE --reject REASON --hunt FILE [--timeout SECONDS]",
    ]
    static let discussion = """
        Judges the submission the board lists as waiting for TEAM's mission page (chest board, the board in a \
        browser, /board.json's submissions): it reads the board's journal beside the hunt file for it. \
        --accept gives the page's points (compose --points), or fewer with --points N; --reject says why, and \
        the team may submit again. The verdict is signed with your identity (the organiser's), names the \
        submission it judged by its id and SHA-256, and is kept by the broker for the board, which counts \
        the points as a proven page's, and for the team, whose chest watch, chest nav and desktop tell it. \
        A page is judged once.

        example:
          chest hunt judge red 3f2a 2 --accept "all five of you" --hunt spring.hunt
          chest hunt judge blue 3f2a 2 --reject "no fountain" --hunt spring.hunt
        """
    static let parameters: [Parameter] = [
        .positional("TEAM", help: "the team, as chest hunt team add named it"),
        .positional("MESSAGE", help: "the message's ID or a unique prefix of it"),
        .positional("PAGE", help: "the mission page's number"),
        .positional("REASON", arity: Arity(0, .max), help: "why (1 to 200 characters; needed to reject)"),
        .flag("--accept", help: "accept the submission: the team earns the page's points"),
        .option("--reject", value: "REASON", help: "reject the submission, saying why; the team may submit again"),
        .option("--points", value: "N", help: "with --accept: fewer points than the page's (0 to its --points)"),
        .huntFile,
        .option("--timeout", value: "SECONDS", help: "how long to wait for the broker (default 10)"),
    ]

    var team: String
    var message: String
    var page: Int
    var accept: Bool
    var reason: String
    var points: Int?
    var huntPath: String
    var timeout: Double

    init(_ values: ParsedValues) throws(UsageError) {
        team = TeamName(typed: values.positional("TEAM")[0])?.rawValue ?? values.positional("TEAM")[0]
        message = values.positional("MESSAGE")[0].lowercased()
        let pageText = values.positional("PAGE")[0]
        guard let page = Int(pageText), page >= 1 else { throw UsageError("PAGE is a page number, not \(pageText)") }
        self.page = page
        accept = values.flag("--accept")
        let reject = values.value("--reject")
        guard accept != (reject != nil) else {
            throw UsageError("hunt judge needs one of --accept and --reject REASON")
        }
        let words = values.positional("REASON").joined(separator: " ")
        guard reject == nil || words.isEmpty else {
            throw UsageError("--reject takes the reason; write it once, after --reject")
        }
        reason = reject ?? words
        guard (accept && reason.isEmpty) || HuntAdjustment.isValidReason(reason) else {
            throw UsageError("REASON is 1 to 200 characters without control characters; the team and the board see it")
        }
        points = try values.value("--points", "--points is a whole number of points, 0 or more") {
            Int($0).flatMap { $0 >= 0 ? $0 : nil }
        }
        if points != nil, !accept { throw UsageError("--points goes with --accept; a rejection gives none") }
        huntPath = try values.huntPath("hunt judge")
        timeout =
            try values.value("--timeout", "--timeout is a number of seconds") {
                Double($0).flatMap { $0 > 0 ? $0 : nil }
            } ?? 10
    }

    func run(settings: Settings) throws {
        let hunt = try HuntFile.read(path: huntPath)
        guard !hunt.isJoinFile else {
            throw ChestError("\(huntPath) is a team's join file; judging needs the organiser's hunt file")
        }
        guard TeamName(team).flatMap(hunt.team(named:)) != nil else {
            throw ChestError("\(huntPath) has no team \(TerminalText.escaped(team))")
        }
        let matches = (hunt.messages ?? [:]).keys.filter { $0.rawValue.hasPrefix(message) }
        guard matches.count == 1, let id = matches.first else {
            throw ChestError(
                matches.isEmpty
                    ? "\(huntPath) has no message \(TerminalText.escaped(message)) composed for the hunt"
                    : "\(TerminalText.escaped(message)) names \(matches.count) messages; give more of the ID")
        }
        let pages = hunt.messages?[id]?.pages ?? []
        guard pages.indices.contains(page - 1), pages[page - 1].mission == true else {
            throw ChestError("page \(page) of \(id.short) is no mission (compose --mission); nothing to judge")
        }
        let most = pages[page - 1].worth
        if let points, points > most {
            throw ChestError(
                "page \(page) of \(id.short) gives at most \(most) point\(most == 1 ? "" : "s"), not \(points)")
        }
        let submission = try Self.waiting(
            journal: BoardFeed.journalPath(huntPath: huntPath), team: team, message: id, page: page)
        let identity = try OrganiserPost.identity(settings, hunt: hunt, signing: "verdicts are")
        let given = accept ? (points ?? most) : 0
        let verdict = HuntVerdict(
            team: team, message: id, page: page, submission: submission.id, digest: submission.digest,
            accepted: accept, points: given, reason: reason)
        let envelopeID = OrganiserPost.newID()
        try OrganiserPost.publish(
            HuntSigner.sign(
                HuntEnvelope(hunt: hunt.id, id: envelopeID, sent: Date(), verdict: verdict), with: identity),
            topic: HuntTopic.verdict(hunt: hunt.id, team: team, id: envelopeID), hunt: hunt, purpose: "judge",
            timeout: timeout, what: "the verdict")
        print(
            "\(team) \(id.short) page \(page): "
                + (accept ? "accepted, \(given) point\(given == 1 ? "" : "s")" : "rejected; the team may submit again")
                + "; the broker keeps the verdict for the board and the team")
    }

    /// The team's latest submission for the page in the board's journal, when no verdict there judged it.
    static func waiting(journal: String, team: String, message: MessageID, page: Int) throws
        -> BoardCore.HeardSubmission
    {
        guard FileManager.default.fileExists(atPath: journal) else {
            throw ChestError(
                "no board's journal at \(journal): run chest board with this hunt file to hear submissions")
        }
        var latest: BoardCore.HeardSubmission?
        var judged: [UInt64: Bool] = [:]
        try BoardFeed.forEachLine(of: journal) { bytes in
            guard let line = BoardJournal.Line.decode(bytes) else { return }
            if let submitted = line.submitted, submitted.team == team, submitted.message == message,
                submitted.page == page
            {
                latest = submitted
            } else if let payload = line.payload.flatMap({ Data(base64Encoded: $0) }),
                let envelope = try? HuntEnvelope.decode(payload), case let .verdict(verdict) = envelope.body,
                verdict.team == team, verdict.message == message, verdict.page == page
            {
                judged[verdict.submission] = verdict.accepted
            }
        }
        guard let latest else {
            throw ChestError("the board has no submission of \(team) for \(message.short) page \(page)")
        }
        if let accepted = judged[latest.id] {
            throw ChestError(
                "\(team)'s submission for \(message.short) page \(page) is judged already ("
                    + (accepted ? "accepted: a page is judged once)" : "rejected; the team may submit again)"))
        }
        return latest
    }
}
