import ChestArguments
import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials
import Glibc

/// `chest hunt create NAME --broker URL`: the organiser's hunt file.
struct HuntCreateCommand: ChestCommand {
    static let name = "create"
    static let abstract = "create a hunt file for the organiser"
    static let synopses = [
        "NAME --broker URL [--ca FILE] [--share-positions] [--starts TIME] [--ends TIME] [-o FILE] [--force]"
    ]
    static let discussion = """
        Writes the organiser's hunt file (mode 0600): the hunt's ID, the broker, the organiser's public key (your \
        identity signs releases), the organiser's broker user and password (printed, with its line of Mosquitto's \
        password file), and later each team. Keep it private: \
        it holds every team's password and signing key. Without -o the file is NAME.hunt in the current directory \
        ("Spring hunt" makes spring-hunt.hunt). Positions of the fixes that opened a page travel in receipts only \
        with --share-positions.

        --starts and --ends (ISO 8601, as time locks take them) set the hunt's window: no page of the hunt opens \
        for a team before the start, nothing more opens after the end, and the board credits nothing outside it \
        (change them later with chest hunt schedule).

        example:
          chest hunt create "Spring hunt" --broker mqtts://broker.example.org:8883 \\
            --starts 2026-04-18T14:00:00+02:00 --ends 2026-04-18T17:00:00+02:00
        """
    static let parameters: [Parameter] = [
        .positional("NAME", help: "the hunt's name, as the teams and the board see it"),
        .option("--broker", value: "URL", help: "the MQTT broker: mqtt://HOST:PORT, or mqtts://HOST:PORT for TLS"),
        .option(
            "--ca", value: "FILE", help: "the CA certificate of an mqtts broker not signed by a system CA",
            completion: .files()),
        .flag("--share-positions", help: "receipts carry the positions of the fixes that opened a page"),
        .option("--starts", value: "TIME", help: "when the hunt starts (ISO 8601): no page of it opens before"),
        .option("--ends", value: "TIME", help: "when the hunt ends (ISO 8601): nothing opens or is credited after"),
        .option(
            "--output", "-o", value: "FILE", help: "the hunt file to write (default NAME.hunt)",
            completion: .files(extension: "hunt")),
        .flag("--force", help: "overwrite FILE if it exists"),
    ]

    var name: String
    var broker: BrokerURL
    var caFile: String?
    var sharePositions: Bool
    var output: String?
    var force: Bool
    var schedule: HuntSchedule

    init(_ values: ParsedValues) throws(UsageError) {
        name = values.positional("NAME")[0]
        guard let broker = values.value("--broker") else {
            throw UsageError("hunt create needs --broker URL, such as --broker mqtts://broker.example.org:8883")
        }
        guard let url = BrokerURL(broker) else {
            throw UsageError("--broker \(broker): write mqtt://HOST:PORT or mqtts://HOST:PORT")
        }
        self.broker = url
        caFile = values.value("--ca")
        sharePositions = values.flag("--share-positions")
        output = values.value("--output")
        force = values.flag("--force")
        schedule = HuntSchedule(
            starts: try HuntScheduleCommand.time(values, "--starts", clearable: false) ?? nil,
            ends: try HuntScheduleCommand.time(values, "--ends", clearable: false) ?? nil)
        if let problem = schedule.problem { throw UsageError(problem) }
    }

    func run(settings: Settings) throws {
        let path = output ?? Self.fileName(for: name)
        let file = try OutputFile(checking: path, force: force, otherwise: "choose another name with -o")
        let identity = try Identity.loadOrCreate(at: settings.identityPath)
        var hunt = HuntFile(
            id: HuntSigner.newHuntID(), name: name, broker: broker, organiser: identity.publicKeyBase64,
            sharePositions: sharePositions)
        hunt.caFile = caFile.map { $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0 }
        hunt.organiserPassword = HuntSigner.newPassword()
        hunt.setSchedule(schedule)
        do {
            hunt = try HuntFile.decode(hunt.fileBytes)
        } catch {
            throw UsageError("\(error)")
        }
        try hunt.write(to: path)
        // With -o -, the hunt file is the standard output and the summary goes beside it.
        (file.target == .standardOutput ? printError : { print($0) })(
            """
            created hunt \u{201C}\(TerminalText.escaped(name))\u{201D} (\(hunt.id)) in \(path)
            broker user \(HuntFile.organiserUser), password \(hunt.organiserPassword ?? "")
            password file line: \(MosquittoPassword.line(user: HuntFile.organiserUser, password: hunt.organiserPassword ?? ""))
            \(schedule.isEmpty ? "no start or end (chest hunt schedule sets them)" : "the hunt " + HuntScheduleCommand.describe(schedule))
            next: chest hunt team add TEAM --hunt \(path)
            """)
    }

    /// "Spring Hunt 2026" → "spring-hunt-2026.hunt".
    static func fileName(for name: String) -> String {
        let slug = name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let trimmed = String(slug).split(separator: "-").joined(separator: "-")
        return (trimmed.isEmpty ? "hunt" : trimmed) + ".hunt"
    }
}
