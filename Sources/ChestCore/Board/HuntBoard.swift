import struct FoundationEssentials.Date

/// The organiser's view of a hunt (docs/HUNTS.md "The board"): every team of the hunt file, whether it is
/// online, the pages it was credited with and when the board heard of them, the hints it was given and the
/// organiser's adjustments, and so its points (docs/HUNTS.md "Points"), and what was refused and why. Pure: fed
/// envelopes the gate accepted, in arrival order, by `BoardCore`, with what ChestSeal made of their signatures and
/// proofs.
/// A receipt is credited only when its message was composed for this hunt, its page exists, its proof checks and
/// its reader key is one the team claimed (docs/HUNTS.md "What the board credits"). What a receipt claims (its
/// `openedAt`, its trust) is shown as claimed and never orders anything.
package struct HuntBoard: Codable, Sendable {
    /// Failures kept per team: enough to see what goes wrong, bounded against a flood of forgeries.
    package static let failureLimit = 50

    package let hunt: HuntID
    private var order: [String]
    var byName: [String: Team]
    /// Reader key → the team that claimed it first: a key plays for one team.
    private var readerTeams: [String: String] = [:]
    /// The signature of each credited receipt → its team: seen again on another team's topic, it is refused.
    private var credited: [String: String] = [:]
    /// Each team's time limit in force, in seconds (docs/HUNTS.md "A clock for each team"); nil without one.
    package private(set) var limit: Int?

    /// Every team of the file, listed before any is heard.
    package init(hunt: HuntFile) {
        self.hunt = hunt.id
        order = hunt.teams.map(\.name.rawValue)
        byName = Dictionary(hunt.teams.map { ($0.name.rawValue, Team(name: $0.name.rawValue, pages: [], failed: [])) })
        { first, _ in first }
    }

    /// Takes in an accepted envelope. For a receipt: `receiptProblem` is nil when the receipt's own signature
    /// verified (`ReceiptSigner.verify`), else why not; `proof` is what the page keys say of its proof. For a
    /// status or a receipt: `claimedReader` is the reader key whose claim to play for the sender it carries and that
    /// signed that claim (`ReaderClaim.claimedReader`), or nil.
    /// `worth` is what the receipt's page is worth when proven (`HuntMessage.PageKey.worth`). `starts` is the team's
    /// start in force: a page whose receipt says its place was reached before it scores nothing. `finishes`: the page
    /// is a finish page, whose credit stops the team's clock (docs/HUNTS.md "A finish").
    package mutating func record(
        _ envelope: HuntEnvelope, receiptProblem: String?, proof: ProofCheck = .missing,
        claimedReader: String? = nil, worth: Int = 1, starts: Date? = nil, finishes: Bool = false,
        receivedAt: Date
    ) -> [BoardEvent] {
        guard var team = byName[envelope.sender] else { return [] }
        team.lastHeard = receivedAt
        if team.firstHeard == nil, envelope.kind == .status || envelope.kind == .receipt {
            team.firstHeard = receivedAt
        }
        var events: [BoardEvent] = []
        claim: if let reader = claimedReader, envelope.kind == .status || envelope.kind == .receipt {
            if let owner = readerTeams[reader], owner != team.name {
                // A receipt of that reader is refused below, as wrongReader, for this same reason.
                guard envelope.kind == .status else { break claim }
                let why =
                    "\(envelope.kind.rawValue) \(envelope.id): reader key \(Self.short(reader)) already plays for team \(owner)"
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
            if let device = status.device {
                let entry = Device(name: device, online: status.online, trust: status.trust, lastHeard: receivedAt)
                if let index = team.devices.firstIndex(where: { $0.name == device }) {
                    team.devices[index] = entry
                } else {
                    team.devices.append(entry)
                    team.devices.sort { $0.name < $1.name }
                }
                // The team is online while any of its devices is.
                team.online = team.devicesOnline > 0
            } else {
                team.online = status.online
            }
            if let trust = status.trust { team.trust = trust }
            if let walked = status.walked { team.recordWalked(walked, device: status.device, id: envelope.id) }
        case let .receipt(receipt, _):
            if let (refusal, why) = judge(receipt, proof: proof, receiptProblem: receiptProblem, team: team.name) {
                events += refuse(refusal, "receipt \(envelope.id): " + why, team: &team, at: receivedAt)
            } else if !team.pages.contains(where: { $0.message == receipt.message && $0.page == receipt.page }) {
                if let signature = receipt.signature { credited[signature] = team.name }
                let early = Self.beforeStart(receipt.evidence, starts: starts)
                let opened = OpenedPage(
                    message: receipt.message, title: receipt.title, page: receipt.page,
                    openedAt: receipt.openedAt, trust: receipt.evidence.trust.level,
                    receivedAt: receivedAt, proven: proof == .proven,
                    positions: receipt.evidence.fixes.compactMap(Self.position),
                    reachedAt: receipt.evidence.reachedAt,
                    points: proof == .proven && early == nil ? worth : 0, early: early)
                team.pages.append(opened)
                team.trust = opened.trust
                // A finish is proven like any other page: a guarded one stops no clock (docs/HUNTS.md "A finish").
                if finishes, opened.proven, team.finishedAt == nil { team.finishedAt = receivedAt }
                events.append(
                    .unlock(
                        team: team.name, message: opened.message, title: opened.title, page: opened.page,
                        openedAt: opened.openedAt, trust: opened.trust, receivedAt: receivedAt,
                        proof: opened.proofWords, reachedAt: opened.reachedAt))
            } else if let signature = receipt.signature {
                credited[signature] = team.name
            }
        case .release, .hintRequest, .hint, .adjust, .schedule, .said, .start, .ask, .told, .submit, .verdict:
            return []
        }
        byName[team.name] = team
        events.append(Self.event(team))
        return events
    }

    /// Sets each team's own start and end from the schedule in force (docs/HUNTS.md "A clock for each team").
    package mutating func apply(_ schedule: HuntSchedule) {
        limit = schedule.limit
        for name in order {
            let window = schedule.forTeam(name)
            byName[name]?.startedAt = window.starts
            byName[name]?.closesAt = window.closes
        }
    }

    /// Takes in the organiser's adjustment (an envelope the gate accepted); nothing for a team not in the hunt.
    package mutating func recordAdjustment(_ adjustment: HuntAdjustment, receivedAt: Date) -> [BoardEvent] {
        guard var team = byName[adjustment.team] else {
            return [
                .refused(
                    reason: Refusal.unknownTeam.rawValue, team: nil,
                    why: "an adjustment for \(TerminalText.escaped(adjustment.team)), not a team of this hunt")
            ]
        }
        team.adjustments.append(
            Adjustment(points: adjustment.points, reason: adjustment.reason, receivedAt: receivedAt))
        byName[team.name] = team
        return [
            .adjusted(team: team.name, points: adjustment.points, reason: adjustment.reason, receivedAt: receivedAt),
            Self.event(team),
        ]
    }

    /// Credits a mission page the organiser accepted (docs/HUNTS.md "Missions"): `points` from the signed verdict,
    /// already bounded by the page's; the team's event after the judged one.
    package mutating func recordMission(_ credit: MissionCredit, team name: String) -> [BoardEvent] {
        guard var team = byName[name] else { return [] }
        team.missions.append(credit)
        byName[name] = team
        return [Self.event(team)]
    }

    /// Refuses a team's submission (docs/HUNTS.md "Missions"): shown with its team's failures.
    package mutating func refuseSubmission(team name: String, _ refusal: Refusal, _ why: String, at: Date)
        -> [BoardEvent]
    {
        guard var team = byName[name] else { return [] }
        team.lastHeard = at
        let events = refuse(refusal, why, team: &team, at: at)
        byName[name] = team
        return events
    }

    /// Why a receipt is not credited to `team`, or nil when it is: in this order, so that the first thing wrong
    /// is the reason shown.
    private func judge(
        _ receipt: UnlockReceipt, proof: ProofCheck, receiptProblem: String?,
        team: String
    ) -> (Refusal, String)? {
        if let receiptProblem { return (.badReceipt, receiptProblem) }
        if let signature = receipt.signature, let owner = credited[signature], owner != team {
            return (
                .wrongTopic,
                "the receipt of team \(owner)'s reader for \(receipt.message.short) page \(receipt.page), sent again by another team"
            )
        }
        switch proof {
        case .unknownMessage:
            return (.unknownMessage, "message \(receipt.message.short) was not composed for this hunt (compose --hunt)")
        case let .noSuchPage(count):
            return (.unknownMessage, "message \(receipt.message.short) has \(count) pages, not a page \(receipt.page)")
        case .missing: return (.noProof, "no proof of opening for \(receipt.message.short) page \(receipt.page)")
        case .bad:
            return (
                .badProof,
                "the proof for \(receipt.message.short) page \(receipt.page) was not made with the page's key"
            )
        case .proven, .guarded: break
        }
        guard readerTeams[receipt.reader] == team else {
            let owner = readerTeams[receipt.reader].map { "team \($0)'s" } ?? "not a reader key the team claimed"
            return (.wrongReader, "reader key \(Self.short(receipt.reader)) is \(owner)")
        }
        return nil
    }

    mutating func refuse(_ refusal: Refusal, _ why: String, team: inout Team, at: Date) -> [BoardEvent] {
        Self.append(Failure(reason: refusal.rawValue + ": " + why, at: at), to: &team)
        team.refusals[refusal.rawValue, default: 0] += 1
        return [.refused(reason: refusal.rawValue, team: team.name, why: why)]
    }

    static func short(_ key: String) -> String { String(key.prefix(8)) }

    /// The oldest time the evidence gives for the fixes that opened the page (each fix's time, and when its place was
    /// reached), when it is older than the hunt's start: the team walked the course before the hunt was on
    /// (docs/HUNTS.md "Points"). What a receipt's evidence says is the team's claim, so this catches the honest early
    /// walker, not a forged build.
    static func beforeStart(_ evidence: UnlockEvidence, starts: Date?) -> Date? {
        guard let starts else { return nil }
        let oldest = (evidence.fixes.compactMap(\.time) + [evidence.reachedAt].compactMap { $0 }).min()
        return oldest.flatMap { $0 < starts ? $0 : nil }
    }

    private static func position(_ fix: UnlockEvidence.ConfirmingFix) -> Coordinate? {
        guard let latitude = fix.latitude, let longitude = fix.longitude else { return nil }
        let position = Coordinate(latitude: latitude, longitude: longitude)
        return position.isValid ? position : nil
    }

    /// Takes in a refusal by the gate; the team is the one the topic names, when it is a team of the hunt
    /// (`team(named:)`).
    package mutating func recordRefusal(_ refusal: HuntGate.Refusal, topic: String, at: Date) -> [BoardEvent] {
        let why = "\(Self.words(refusal)) on \(topic)"
        guard let name = team(named: topic), var team = byName[name] else {
            return [.refused(reason: refusal.rawValue, team: nil, why: why)]
        }
        Self.append(Failure(reason: refusal.rawValue + ": " + why, at: at), to: &team)
        team.refusals[refusal.rawValue, default: 0] += 1
        byName[name] = team
        return [.refused(reason: refusal.rawValue, team: name, why: why)]
    }

    /// The team below whose name a topic of this hunt is, when it is one of its teams: any topic there, well formed
    /// or not, is that team's (`HuntTopic.teamLevel`), so that what it sends on `receipt/<not-an-id>` is counted for
    /// it as what it sends on its own receipts' topics.
    package func team(named topic: String) -> String? {
        guard let level = HuntTopic.teamLevel(topic, under: HuntTopic.prefix(hunt: hunt)) else { return nil }
        let name = String(level)
        return byName[name] == nil ? nil : name
    }

    /// Adds refusals the journal kept only as counts (docs/HUNTS.md "The board's journal") to a team's count.
    package mutating func countRefusals(_ reason: String, team name: String, _ count: Int) {
        guard count > 0, var team = byName[name] else { return }
        team.refusals[reason, default: 0] += count
        byName[name] = team
    }

    /// Every team, in the hunt file's order.
    package var teams: [Team] { order.compactMap { byName[$0] } }

    /// Every team's name, in the hunt file's order: `teams.map(\.name)` without copying the teams.
    package var teamNames: [String] { order.filter { byName[$0] != nil } }

    static func event(_ team: Team) -> BoardEvent {
        .team(
            name: team.name, online: team.online, lastHeard: team.lastHeard, trust: team.trust, pages: team.pages.count,
            points: BoardEvent.Score(
                points: team.points, hints: team.hints.count, hintCost: team.hintCost, adjustments: team.adjusted))
    }

    static func append(_ failure: Failure, to team: inout Team) {
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
        case .afterEnd: "received after the hunt ended: nothing credited or charged"
        case .beforeStart: "received before the hunt started: nothing credited or charged"
        case .afterLimit: "received after the team's time ran out: nothing credited or charged"
        case .tooFast:
            "more than one team may send (\(Int(TeamRate.burst)) at once, then \(Int(TeamRate.perSecond)) a second): not checked"
        case .queueFull:
            "the board was too far behind and dropped it unchecked (the broker keeps it retained: restart the board to be handed it again)"
        }
    }
}
