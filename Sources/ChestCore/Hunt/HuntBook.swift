import struct FoundationEssentials.Date

/// The engine's memory of the hunt this chest plays in (docs/HUNTS.md "Joining a hunt"), as `SealBook` is for
/// seals: the broker link's state, the session and its statuses, the receipts owed and the releases heard.
struct HuntBook: Sendable {
    var file: HuntFile?
    var ledger: HuntReceiptLedger?
    var gate: HuntGate?
    var connected = false
    var problem: String?
    var outbox = 0
    /// This connection's session and the statuses published in it: `TeamStatus.id` orders them and the will.
    var session: UInt64 = 0
    var statusCount: UInt64 = 0
    /// The last status put in the outbox (as the engine computed it, before the adapter claims it).
    var lastStatus: TeamStatus?
    /// Receipts asked of the adapter and not yet answered: neither the catch-up nor a second unlock asks again.
    var posting: Set<PageLink> = []
    /// Releases the organiser published and the gate believed, by name.
    var releases: [String: ReleaseKey] = [:]
    /// Receipts and statuses wait for the chest to be loaded: before, every page would look closed.
    var chestLoaded = false
    /// Hint keys the organiser's board gave this team, by `HintRef.key`, base64 (docs/HUNTS.md "Hints").
    var hintKeys: [String: String] = [:]
    /// Hint keys believed by the gate that were not sealed to this reader or opened nothing.
    var hintKeysRefused = 0
    /// Start keys the organiser sealed that did not open with the team's key (docs/HUNTS.md "A clock for each team").
    var startKeysRefused = 0
    /// The organiser's word kept: the newest signed schedule and the words announced (Engine+Schedule.swift).
    var word: HuntWord?
    /// Messages with a page whose locks hold but which the hunt's window keeps closed (before the start, or held
    /// after the end): tried again at the start and whenever the schedule changes.
    var heldForStart: Set<MessageID> = []
    var heldAfterEnd: Set<MessageID> = []
    /// How far the receiver was carried while the hunt was on for this team, for the status (docs/HUNTS.md "Distance
    /// walked").
    var walked = WalkedDistance()

    /// This team's start and end in force: the newest signed schedule heard, else the join file's, as it applies to
    /// this team (its own start and limit, docs/HUNTS.md "A clock for each team").
    var schedule: HuntSchedule {
        (word?.schedule?.schedule ?? file?.schedule ?? HuntSchedule()).forTeam(file?.team?.rawValue)
    }

    var isJoined: Bool { file != nil }

    /// Starts a new session: above every earlier one of this device (seconds since 1970, and above the last one).
    mutating func newSession(now: Date) {
        statusCount = 0
        session = max(session + 1, UInt64(max(0, now.timeIntervalSince1970)))
    }

    /// The next status of this session, with its id.
    mutating func post(_ status: TeamStatus) -> HuntStatusPost {
        var status = status
        status.online = true
        statusCount += 1
        return HuntStatusPost(status, id: TeamStatus.id(session: session, count: statusCount))
    }

    /// The last will: this session is over (docs/HUNTS.md "Team status").
    var will: HuntStatusPost {
        HuntStatusPost(
            TeamStatus(online: false, pagesOpen: lastStatus?.pagesOpen ?? 0, walked: lastStatus?.walked),
            id: TeamStatus.id(session: session, count: nil))
    }

    /// For `status`.
    var report: HuntLinkStatus? {
        guard let file, let team = file.team else { return nil }
        return HuntLinkStatus(
            name: file.name, hunt: file.id, team: team.rawValue, broker: file.broker, connected: connected,
            problem: connected ? nil : problem, outbox: outbox,
            ignored: Dictionary(uniqueKeysWithValues: (gate?.refused ?? [:]).map { ($0.key.rawValue, $0.value) })
                .merging(hintKeysRefused > 0 ? ["hintKey": hintKeysRefused] : [:]) { $1 }
                .merging(startKeysRefused > 0 ? ["startKey": startKeysRefused] : [:]) { $1 },
            releases: releases.keys.sorted(), schedule: schedule, said: Array(word?.said.suffix(5) ?? []))
    }
}
