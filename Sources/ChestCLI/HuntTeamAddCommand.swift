import ChestArguments
import ChestCore
import ChestIO
import ChestSeal
import ChestWeb
import Foundation

/// `chest hunt team add TEAM --hunt FILE`: a team's broker password and signing key, and its join file.
struct HuntTeamAddCommand: ChestCommand {
    static let name = "add"
    static let abstract = "add a team and write its join file"
    static let synopses = ["TEAM --hunt FILE [--colour COLOUR] [-o FILE]"]
    static let discussion = """
        Adds the team to the hunt file with a new broker password and signing key, and writes the team's join
        file (mode 0600; default HUNT-TEAM.hunt beside the hunt file) to hand to the team: chest hunt join FILE.
        Prints the line that adds the team's user to Mosquitto's password file (docs/HUNTS.md "Broker").
        A team name is 1 to 32 letters, digits, - or _: it is the team's broker user and topic.
        --colour sets the team's colour on the board: a name (red, blue, green, orange, purple, …) or #rrggbb;
        without it, a team named after a colour ("blue", "red-foxes") has that colour, others one no team is named after.
        """
    static let parameters: [Parameter] = [
        .positional("TEAM", help: "the team's name"),
        .huntFile,
        .option("--colour", value: "COLOUR", help: "the team's colour on the board: a colour name or #rrggbb"),
        .option("--output", "-o", value: "FILE", help: "the team's join file", completion: .files(extension: "hunt")),
    ]

    var team: String
    var huntPath: String
    var output: String?
    var colour: String?

    init(_ values: ParsedValues) throws(UsageError) {
        team = values.positional("TEAM")[0]
        guard HuntTeam.isValidName(team), team != HuntFile.organiserUser else {
            throw UsageError("\"\(team)\" cannot name a team: use 1 to 32 letters, digits, - or _ (and not \(HuntFile.organiserUser))")
        }
        huntPath = try values.huntPath("hunt team add")
        output = values.value("--output")
        colour = try values.value("--colour", "--colour takes a colour name (red, blue, green, orange, purple, …) or #rrggbb") {
            TeamColours.isValid($0) ? $0.lowercased() : nil
        }
    }

    func run(settings: Settings) throws {
        var hunt = try HuntFile.read(path: huntPath)
        guard !hunt.isJoinFile else { throw ChestError("\(huntPath) is a team's join file; add teams to the organiser's hunt file") }
        guard hunt.team(named: team) == nil else { throw ChestError("\(huntPath) already has a team \(team)") }
        let keys = HuntSigner.newTeamKeys()
        hunt.teams.append(HuntTeam(name: team, password: HuntSigner.newPassword(), publicKey: keys.publicKey,
                                   secretKey: keys.secretKey, colour: colour))
        let path = output ?? Self.joinFileName(huntPath: huntPath, team: team)
        guard let join = hunt.joinFile(team: team) else { throw ChestError("cannot make the join file of \(team)") }
        try join.write(to: path)
        try hunt.write(to: huntPath)
        let password = hunt.team(named: team)?.password ?? ""
        print("""
            added team \(team) to \(huntPath); its join file is \(path) (give it to the team: chest hunt join \(path))
            broker: mosquitto_passwd -b /etc/mosquitto/hunt.passwd \(team) \(password)
            """)
    }

    /// "spring.hunt" and "red" → "spring-red.hunt", beside the hunt file.
    static func joinFileName(huntPath: String, team: String) -> String {
        let stem = huntPath.hasSuffix(".hunt") ? String(huntPath.dropLast(5)) : huntPath
        return "\(stem)-\(team).hunt"
    }
}
