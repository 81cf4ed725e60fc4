import ChestArguments
import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials
import Glibc

/// `chest hunt start --hunt FILE [--team NAME]...`: starts the hunt now, or only the teams named (docs/HUNTS.md "The
/// start key", "A clock for each team").
struct HuntStartCommand: ChestCommand {
    static let name = "start"
    static let abstract = "start the hunt now, or some teams now: publish the start key every page of the hunt needs"
    static let synopses = ["--hunt FILE [--team NAME]... [--timeout SECONDS]"]
    static let discussion = """
        Without --team, starts every team not started yet: a start still ahead moves to now, and the hunt's start \
        key goes to the broker as a retained release signed with your identity (the organiser's). With --team, \
        starts those teams now, whatever the schedule says (a wave): each gets the start key sealed to its own team \
        key, which no other team can open, and its clock (chest hunt schedule --limit) runs from now. Every team's \
        chestd hears it now or when it next connects, and from then on the hunt's pages open as their locks hold. \
        Before it, nothing composed with --hunt FILE for a hunt with a start opens anywhere, whatever a clock says. \
        chest board publishes the key by itself at the start in force; run this when no board runs, or to start \
        teams early. The key was made by chest compose --hunt FILE; once published it cannot be taken back.
        """
    static let parameters: [Parameter] = [
        .huntFile,
        .option(
            "--team", value: "NAME", help: "start this team now (repeatable); without it, every team", repeatable: true),
        .brokerTimeout,
    ]

    var organiser: OrganiserOptions
    var teams: [String]

    init(_ values: ParsedValues) throws(UsageError) {
        organiser = try OrganiserOptions(values, command: "hunt start")
        // As typed, in NFC, so a name typed decomposed still matches (docs/HUNTS.md "Team names").
        teams = values.values("--team").map { TeamName(typed: $0)?.rawValue ?? $0 }
    }

    func run(settings: Settings) throws {
        var hunt = try organiser.readHunt(refusingJoinFile: "the start key is in the organiser's hunt file")
        guard let key = hunt.releases?[.start] else {
            throw ChestError(
                "\(organiser.huntPath) has no start key: no message was composed with --hunt \(organiser.huntPath) while the hunt had a start, so nothing waits for one"
            )
        }
        let identity = try OrganiserPost.identity(settings, hunt: hunt, signing: "the start key is")
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        var schedule = hunt.schedule
        if let ends = schedule.ends, now >= ends {
            throw ChestError("the hunt ended at \(ISO8601.string(ends)); there is nothing left to start")
        }
        guard teams.isEmpty else {
            try startTeams(&hunt, schedule: &schedule, key: key, now: now, identity: identity)
            return
        }
        let envelope = HuntEnvelope.startKey(key, hunt: hunt.id, id: OrganiserPost.newID(), sent: Date())
        let topic = HuntTopic.release(hunt: hunt.id, name: HuntRelease.startName)
        if let starts = schedule.starts, starts > now {
            // Every team not started by hand starts now: the start moves to now, and the key goes out after it.
            schedule.starts = now
            try HuntScheduleCommand.publish(
                schedule, in: &hunt, path: organiser.huntPath, identity: identity, timeout: organiser.timeout,
                more: [(envelope, topic)])
        } else {
            try OrganiserPost.publish(
                HuntSigner.sign(envelope, with: identity), topic: topic, hunt: hunt, purpose: "start",
                timeout: organiser.timeout, what: "the start key")
        }
        print("started the hunt: the broker keeps its start key for every team")
    }

    /// Starts the teams named now: each one's start written into the organiser's file and the schedule, then its
    /// start key, sealed to the team's key, published on its own topic.
    private func startTeams(
        _ hunt: inout HuntFile, schedule: inout HuntSchedule, key: ReleaseKey, now: Date, identity: Identity
    ) throws {
        var sealed: [(HuntEnvelope, String)] = []
        var started = schedule.teams ?? [:]
        for name in teams {
            guard let team = hunt.teams.first(where: { $0.name.rawValue == name }) else {
                throw UsageError("--team \(TerminalText.escaped(name)): no such team in \(organiser.huntPath)")
            }
            if let at = started[name] ?? schedule.starts.flatMap({ $0 <= now ? $0 : nil }) {
                throw ChestError("team \(name) started at \(ISO8601.string(at)) already; its clock cannot start again")
            }
            guard let bytes = Data(base64Encoded: key.base64), let box = HintSeal.seal(bytes, toReader: team.publicKey)
            else {
                throw ChestError(
                    "team \(name)'s key in \(organiser.huntPath) is not an Ed25519 key; run chest hunt team add again")
            }
            started[name] = now
            let start = HuntTeamStart(team: name, sealed: box.base64EncodedString())
            sealed.append(
                (
                    HuntEnvelope(hunt: hunt.id, id: OrganiserPost.newID(), sent: now, start: start),
                    HuntTopic.start(hunt: hunt.id, team: name)
                ))
        }
        schedule.teams = started
        try HuntScheduleCommand.publish(
            schedule, in: &hunt, path: organiser.huntPath, identity: identity, timeout: organiser.timeout, more: sealed)
        let left = schedule.limit.map { "; each plays \(HuntSchedule.duration(Double($0))) from now" } ?? ""
        print(
            "started \(teams.joined(separator: ", ")) at \(ISO8601.string(now)): the start key is sealed to each team"
                + left)
    }
}
