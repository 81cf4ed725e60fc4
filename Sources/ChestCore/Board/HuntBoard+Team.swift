import struct FoundationEssentials.Date

/// What the board keeps of each team: its credited pages, the hints it was given, the organiser's adjustments and
/// what was refused on its topics (docs/HUNTS.md "The board").
extension HuntBoard {
    package struct OpenedPage: Codable, Hashable, Sendable {
        package var message: MessageID
        package var title: String
        package var page: Int
        /// When the reader says its chestd opened it: its claim, shown, never used for order.
        package var openedAt: Date
        /// The trust the receipt claims for the fixes that opened it.
        package var trust: FixTrust.Level
        /// When the board heard of it: what the ranking goes by.
        package var receivedAt: Date
        /// False for a guarded page: its proof shows only that the file was held.
        package var proven: Bool
        /// Where the receipt's confirming fixes were, oldest first, when the hunt shares positions: the team's claim,
        /// shown on the board's map, never used for anything else.
        package var positions: [Coordinate] = []
        /// When the receipt says the page's place was reached (its third confirming fix): the team's claim, earlier
        /// than `openedAt` when the place's key came late.
        package var reachedAt: Date?
        /// The points it was credited with: the page's worth when proven, 0 for a guarded page or one reached before
        /// the start (docs/HUNTS.md "Points").
        package var points: Int = 0
        /// The oldest fix (or reach) time of its receipt's evidence, when it is older than the hunt's start: the team
        /// was at the page's place before the hunt was on, so the page scores nothing; nil otherwise.
        package var early: Date?

        /// The `proof` of its `unlock` event: "proven", "proven: reached before the start", or "unproven: guarded
        /// page".
        package var proofWords: String {
            guard proven else { return "unproven: guarded page" }
            return early == nil ? "proven" : "proven: reached before the start"
        }
    }

    /// A hint the board gave a team, charged once (docs/HUNTS.md "Hints").
    package struct GivenHint: Codable, Hashable, Sendable {
        package var message: MessageID
        package var page: Int
        package var hint: Int
        /// The points it cost: 0 when the board gave it free after its delay.
        package var cost: Int
        /// When the board heard the first request for it, or gave it free after its delay.
        package var receivedAt: Date
    }

    /// The organiser's bonus or deduction (docs/HUNTS.md "Adjustments").
    package struct Adjustment: Codable, Hashable, Sendable {
        package var points: Int
        package var reason: String
        /// When the board heard it.
        package var receivedAt: Date
    }

    /// A mission page the organiser accepted (docs/HUNTS.md "Missions"): the points its signed verdict gave.
    package struct MissionCredit: Codable, Hashable, Sendable {
        package var message: MessageID
        package var page: Int
        package var points: Int
        package var reason: String
        /// The team's id of the submission judged.
        package var submission: UInt64
        /// When the board heard the verdict.
        package var receivedAt: Date
    }

    /// One device of a team (`chest hunt join --device`, docs/HUNTS.md "Several devices in one team"), as its own
    /// statuses say.
    package struct Device: Codable, Hashable, Sendable {
        package var name: String
        package var online: Bool
        package var trust: FixTrust.Level?
        package var lastHeard: Date
    }

    package struct Failure: Codable, Hashable, Sendable {
        package var reason: String
        package var at: Date
    }

    package struct Team: Codable, Hashable, Sendable {
        package var name: String
        /// Nil until a status was heard.
        package var online: Bool?
        package var lastHeard: Date?
        /// When the board first heard the team's status or receipt: the team is playing from then, and a delayed
        /// hint counts from it (docs/HUNTS.md "Hints: the board's side").
        package var firstHeard: Date?
        /// The latest trust the team reported, or its latest receipt claimed.
        package var trust: FixTrust.Level?
        /// In the order the board heard of them; a page heard twice (another receipt for it) counts once.
        package var pages: [OpenedPage]
        /// The last `failureLimit` refusals and bad receipts on this team's topics, oldest first.
        package var failed: [Failure]
        /// Every refusal on this team's topics, by reason (`failed` keeps only the latest few).
        package var refusals: [String: Int] = [:]
        /// The reader keys the team claimed (`TeamStatus.reader`), base64.
        package var readers: [String] = []
        /// The reader key of the latest status or receipt that claimed one for this team: the key a hint is sealed to.
        package var reader: String?
        /// The hints the board gave the team, in the order it first gave them.
        package var hints: [GivenHint] = []
        /// The organiser's adjustments, in the order the board heard them.
        package var adjustments: [Adjustment] = []
        /// The mission pages the organiser accepted, in the order the board heard the verdicts.
        package var missions: [MissionCredit] = []
        /// The team's own start in force (docs/HUNTS.md "A clock for each team"): when it was started by hand, else
        /// the hunt's start; nil for a hunt without a start.
        package var startedAt: Date?
        /// When the team's time runs out: its start plus the hunt's limit, or the hunt's end if sooner; nil when
        /// neither is set.
        package var closesAt: Date?
        /// The team's devices that named themselves in their statuses, by name.
        package var devices: [Device] = []
        /// How many of its devices are online now.
        package var devicesOnline: Int { devices.count(where: \.online) }
        /// When the board heard the credited receipt of a finish page (`compose --finish`): the team's clock stopped.
        package var finishedAt: Date?

        /// Seconds from the team's start (or, in a hunt without a start, from when the board first heard it) to its
        /// finish; nil until it finished.
        package var time: Int? {
            guard let finishedAt, let from = startedAt ?? firstHeard else { return nil }
            return max(0, Int(finishedAt.timeIntervalSince(from).rounded()))
        }

        /// The team's score: its credited pages' points, less its hints' costs, plus the organiser's adjustments.
        package var points: Int { pagePoints - hintCost + adjusted + missionPoints }
        /// The points of its accepted missions.
        package var missionPoints: Int { missions.reduce(0) { $0 + $1.points } }
        /// The points of its credited pages.
        package var pagePoints: Int { pages.reduce(0) { $0 + $1.points } }
        /// The points its hints cost.
        package var hintCost: Int { hints.reduce(0) { $0 + $1.cost } }
        /// The sum of the organiser's adjustments.
        package var adjusted: Int { adjustments.reduce(0) { $0 + $1.points } }
        /// Its credited pages whose receipts say they were reached before the hunt's start: the board's mark on a
        /// team that walked the course early.
        package var earlyPages: Int { pages.count { $0.early != nil } }
        /// Whether the team has a place in the ranking: something credited, given or adjusted.
        package var isRanked: Bool { !pages.isEmpty || !hints.isEmpty || !adjustments.isEmpty || !missions.isEmpty }
        /// When the board heard of the team's last point (a proven page, a bonus): the ranking's tie-break; nil until
        /// the team gained one.
        package var lastPointAt: Date? {
            (pages.filter { $0.points > 0 }.map(\.receivedAt) + adjustments.filter { $0.points > 0 }.map(\.receivedAt)
                + missions.filter { $0.points > 0 }.map(\.receivedAt))
                .max()
        }
        /// When the board heard the team reach where it stands: its last point, or for a team that never gained one, its
        /// last credited page (guarded pages give none).
        package var reachedAt: Date? { lastPointAt ?? reachedCount }

        /// When the board heard of the team's latest credited page: the ranking's tie-break.
        package var reachedCount: Date? { pages.map(\.receivedAt).max() }
        /// The latest `openedAt` the team claims among its credited pages.
        package var claimedCount: Date? { pages.map(\.openedAt).max() }
        /// Where the team's credited receipts say it was, in the order the board heard them (empty unless the hunt
        /// shares positions).
        package var trail: [Coordinate] { pages.flatMap(\.positions) }
    }
}
