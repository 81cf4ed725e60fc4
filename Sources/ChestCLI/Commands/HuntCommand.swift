import ChestArguments
import ChestCore
import ChestIO

/// `chest hunt …`: a hunt over an MQTT broker, for the organiser and the teams (docs/HUNTS.md).
struct HuntCommand: ChestCommand {
    static let name = "hunt"
    static let abstract =
        "run a hunt for several teams over an MQTT broker: create, add teams, join, release, start, schedule, say, adjust, ask, submit, judge"
    static let discussion = """
        The organiser creates a hunt file (chest hunt create), adds each team (chest hunt team add), and hands \
        each team its join file. A reader joins with chest hunt join FILE; chestd then publishes every unlock's \
        signed receipt to the hunt's broker, and opens pages the organiser releases (chest hunt release), only \
        between the hunt's start and end (chest hunt schedule) and once the start key is out (chest hunt start, \
        or the board at the start); chest hunt say sends a word to every team, or to one team alone; a team asks \
        the organiser with chest hunt ask. \
        The organiser follows the teams with chest board, and gives or takes points with chest hunt adjust. \
        Any MQTT 3.1.1 broker works (Mosquitto 2.0 from Debian; examples/mosquitto has a configuration with a user \
        per team, ACLs and TLS): chest signs everything it sends and checks everything it takes. See docs/HUNTS.md.
        """
    static var subcommands: [any ParsableCommand.Type] {
        [
            HuntCreateCommand.self, HuntTeamCommand.self, HuntJoinCommand.self, HuntLeaveCommand.self,
            HuntReleaseCommand.self,
            HuntStartCommand.self, HuntAdjustCommand.self, HuntScheduleCommand.self, HuntSayCommand.self,
            HuntAskCommand.self, HuntSubmitCommand.self, HuntJudgeCommand.self,
        ]
    }

    init(_ values: ParsedValues) throws(UsageError) {}

    func run(settings: Settings) throws {
        print(HelpText.help(for: Self.self, path: ["chest", Self.name]))
    }
}

/// `chest hunt team …`.
struct HuntTeamCommand: ChestCommand {
    static let name = "team"
    static let abstract = "add a team to a hunt"
    static var subcommands: [any ParsableCommand.Type] { [HuntTeamAddCommand.self] }

    init(_ values: ParsedValues) throws(UsageError) {}

    func run(settings: Settings) throws {
        print(HelpText.help(for: Self.self, path: ["chest", HuntCommand.name, Self.name]))
    }
}

extension Parameter {
    /// The organiser's hunt file.
    static let huntFile = Parameter.option(
        "--hunt", value: "FILE", help: "the organiser's hunt file (from chest hunt create)",
        completion: .files(extension: "hunt"))
}

extension ParsedValues {
    /// `--hunt FILE`, which the command cannot do without.
    func huntPath(_ command: String) throws(UsageError) -> String {
        guard let path = value("--hunt") else {
            throw UsageError("\(command) needs --hunt FILE, the organiser's hunt file")
        }
        return path
    }
}
