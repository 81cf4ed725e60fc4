import ChestArguments
import ChestCore
import ChestIO
import ChestMQTT
import ChestSeal
import FoundationEssentials
import Glibc

/// `chest hunt schedule --hunt FILE --starts TIME --ends TIME --limit DURATION`: changes the hunt's start and end, and
/// each team's time limit, in the organiser's file and on every team (docs/HUNTS.md "The hunt's start and end", "A
/// clock for each team").
struct HuntScheduleCommand: ChestCommand {
    static let name = "schedule"
    static let abstract = "set or change when the hunt starts and ends, and each team's time limit, on every team"
    static let synopses = [
        "--hunt FILE [--starts TIME|none] [--ends TIME|none] [--limit DURATION|none] [--timeout SECONDS]"
    ]
    static let discussion = """
        Writes the new start and end into the hunt file and publishes them to the hunt's broker, retained and \
        signed with your identity (the organiser's): every team's chestd applies them as soon as it hears them, \
        now or when it next connects. Before the start no page of the hunt opens for a team; after the end \
        nothing more opens, and the board credits nothing it receives. TIME is ISO 8601, as time locks take it \
        (2026-05-02T14:00:00+02:00; without a zone, local time); none removes the start or the end. --limit \
        gives each team a clock of its own: at most DURATION (90m, 1h30m, 70s) from its own start, and never past \
        the end; a team started by hand (chest hunt start --team) starts then, every other team at the start. After \
        its own time the board refuses its receipts (afterLimit) and charges no hint. An option left out keeps what \
        the file has. Without any option, prints the schedule in force.
        """
    static let parameters: [Parameter] = [
        .huntFile,
        .option("--starts", value: "TIME", help: "when the hunt starts (ISO 8601), or none"),
        .option("--ends", value: "TIME", help: "when the hunt ends (ISO 8601), or none"),
        .option(
            "--limit", value: "DURATION", help: "how long each team plays from its own start (90m, 1h30m), or none"),
        .brokerTimeout,
    ]

    var organiser: OrganiserOptions
    /// nil: keep the file's; .some(nil): remove it.
    var starts: Date??
    var ends: Date??
    var limit: Int??

    init(_ values: ParsedValues) throws(UsageError) {
        organiser = try OrganiserOptions(values, command: "hunt schedule")
        starts = try Self.time(values, "--starts", clearable: true)
        ends = try Self.time(values, "--ends", clearable: true)
        limit = try Self.limit(values)
    }

    /// `--starts` or `--ends` as an instant; with `clearable`, "none" removes it.
    static func time(_ values: ParsedValues, _ option: String, clearable: Bool) throws(UsageError) -> Date?? {
        guard let text = values.value(option) else { return nil }
        if clearable, text.lowercased() == "none" { return .some(nil) }
        guard let date = ISO8601.parse(text, localZone: .current) else {
            throw UsageError(
                "\(option) \(text): not an ISO 8601 time; write it like 2026-05-02T14:00:00+02:00"
                    + (clearable ? ", or none" : ""))
        }
        return .some(date)
    }

    /// `--limit` as whole seconds; "none" removes it.
    static func limit(_ values: ParsedValues) throws(UsageError) -> Int?? {
        guard let text = values.value("--limit") else { return nil }
        if text.lowercased() == "none" { return .some(nil) }
        guard case let .success(seconds) = HintDraft.delay(text), HuntSchedule.limitRange.contains(seconds) else {
            throw UsageError("--limit \(text): not a duration from 1 s to 7 days such as 90m, 1h30m or 70s, or none")
        }
        return .some(seconds)
    }

    /// The schedule as a sentence: "starts 2026-05-02T12:00:00Z, ends 2026-05-02T16:00:00Z, each team 1 h 30 min from
    /// its own start (red started 2026-05-02T11:50:00Z)".
    static func describe(_ schedule: HuntSchedule) -> String {
        guard !schedule.isEmpty else { return "no start or end: the hunt is always on" }
        let started = (schedule.teams ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \(ISO8601.string($0.value))" }
        return [
            schedule.starts.map { "starts \(ISO8601.string($0))" }, schedule.ends.map { "ends \(ISO8601.string($0))" },
            schedule.limit.map { "each team \(HuntSchedule.duration(Double($0))) from its own start" },
            started.isEmpty ? nil : "started by hand: " + started.joined(separator: ", "),
        ]
        .compactMap { $0 }.joined(separator: ", ")
    }

    func run(settings: Settings) throws {
        var hunt = try organiser.readHunt(refusingJoinFile: "the schedule is set in the organiser's hunt file")
        guard starts != nil || ends != nil || limit != nil else {
            print(Self.describe(hunt.schedule))
            return
        }
        let schedule = HuntSchedule(
            starts: starts ?? hunt.starts, ends: ends ?? hunt.ends, limit: limit ?? hunt.limit, teams: hunt.started)
        if let problem = schedule.problem { throw UsageError(problem) }
        let identity = try OrganiserPost.identity(settings, hunt: hunt, signing: "the schedule is")
        try Self.publish(schedule, in: &hunt, path: organiser.huntPath, identity: identity, timeout: organiser.timeout)
        print("the hunt \(Self.describe(schedule)); the broker keeps it for every team")
    }

    /// Writes `schedule` into the organiser's file, then publishes it signed, with `more` (envelopes and their
    /// topics) after it, and waits for the broker's acknowledgements.
    static func publish(
        _ schedule: HuntSchedule, in hunt: inout HuntFile, path: String, identity: Identity, timeout: Double,
        more: [(HuntEnvelope, String)] = []
    ) throws {
        let envelope = HuntEnvelope(hunt: hunt.id, id: OrganiserPost.newID(), sent: Date(), schedule: schedule)
        // The file first: a broker that is away loses nothing, and running the command again publishes it.
        hunt.setSchedule(schedule)
        try hunt.write(to: path)
        try OrganiserPost.publish(
            [(HuntSigner.sign(envelope, with: identity), HuntTopic.schedule(hunt: hunt.id))]
                + more.map { (HuntSigner.sign($0.0, with: identity), $0.1) },
            hunt: hunt, purpose: "schedule", timeout: timeout)
    }
}

/// `chest hunt say TEXT --hunt FILE [--team NAME]...`: a signed word from the organiser to every team (docs/HUNTS.md
/// "Word to all teams"), or sealed to each team named (docs/HUNTS.md "A team's question, a word to one team").
struct HuntSayCommand: ChestCommand {
    static let name = "say"
    static let abstract =
        "send a word to every team, or to one team alone: shown by chest watch, chest nav and a desktop notification"
    static let synopses = ["TEXT --hunt FILE [--team NAME]... [--timeout SECONDS]"]
    static let discussion = """
        Publishes TEXT (1 to 500 characters) to the hunt's broker, retained and signed with your identity (the \
        organiser's): every team's chestd tells it once, now or when it next connects (chest watch's event said, \
        chest nav, a desktop notification), and the board shows it with its latest events. With --team, TEXT goes \
        to each team named alone, sealed to its team key on a topic only that team reads: the answer to a team's \
        question (chest hunt ask). The other teams neither see it nor can read it, and the broker holds it only \
        sealed; the team's chestd tells it once, marked as said to the team alone.
        """
    static let parameters: [Parameter] = [
        .positional("TEXT", help: "what to tell the teams"),
        .huntFile,
        .option(
            "--team", value: "NAME", help: "tell this team alone, sealed to it (repeatable); without it, every team",
            repeatable: true),
        .brokerTimeout,
    ]

    var text: String
    var organiser: OrganiserOptions
    var teams: [String]

    init(_ values: ParsedValues) throws(UsageError) {
        text = values.positional("TEXT")[0]
        if let problem = HuntSaid.problem(text) { throw UsageError(problem) }
        organiser = try OrganiserOptions(values, command: "hunt say")
        // As typed, in NFC, so a name typed decomposed still matches (docs/HUNTS.md "Team names").
        teams = values.values("--team").map { TeamName(typed: $0)?.rawValue ?? $0 }
    }

    func run(settings: Settings) throws {
        let hunt = try organiser.readHunt(refusingJoinFile: "only the organiser speaks to every team")
        let identity = try OrganiserPost.identity(settings, hunt: hunt, signing: "a word to the teams is")
        let id = OrganiserPost.newID()
        guard teams.isEmpty else {
            try OrganiserPost.publish(
                try told(hunt, id: id).map { (HuntSigner.sign($0.0, with: identity), $0.1) }, hunt: hunt,
                purpose: "say", timeout: organiser.timeout)
            print(
                "said to \(teams.joined(separator: ", ")) alone, sealed to each team's key; the broker keeps it for the team"
            )
            return
        }
        let envelope = HuntEnvelope(hunt: hunt.id, id: id, sent: Date(), said: HuntSaid(text: text))
        try OrganiserPost.publish(
            HuntSigner.sign(envelope, with: identity), topic: HuntTopic.said(hunt: hunt.id, id: id),
            hunt: hunt, purpose: "say", timeout: organiser.timeout)
        print("said to every team; the broker keeps it for teams that join later")
    }

    /// The word sealed to each team named, unsigned, with its topic.
    private func told(_ hunt: HuntFile, id: UInt64) throws -> [(HuntEnvelope, String)] {
        let bytes = Data(text.utf8)
        guard bytes.count <= HuntTeamWord.maximumBytes else {
            throw UsageError(
                "the word is \(bytes.count) bytes of UTF-8; at most \(HuntTeamWord.maximumBytes) are sealed")
        }
        return try Set(teams).sorted().map { name in
            guard let team = hunt.teams.first(where: { $0.name.rawValue == name }) else {
                throw UsageError("--team \(TerminalText.escaped(name)): no such team in \(organiser.huntPath)")
            }
            guard let box = HintSeal.seal(bytes, toReader: team.publicKey) else {
                throw ChestError(
                    "team \(name)'s key in \(organiser.huntPath) is not an Ed25519 key; run chest hunt team add again")
            }
            let word = HuntTeamWord(team: name, sealed: box.base64EncodedString())
            return (
                HuntEnvelope(hunt: hunt.id, id: id, sent: Date(), told: word),
                HuntTopic.told(hunt: hunt.id, team: name, id: id)
            )
        }
    }
}
