import ChestArguments
import ChestCore
import ChestIO
import ChestSeal
import ChestWeb
import FoundationEssentials
import Glibc

/// `chest hunt team add TEAM --hunt FILE`: a team's broker password and signing key, and its join file.
struct HuntTeamAddCommand: ChestCommand {
    static let name = "add"
    static let abstract = "add a team and write its join file"
    static let synopses = ["TEAM --hunt FILE [--colour COLOUR] [-o FILE]", "PREFIX --count N --hunt FILE"]
    static let discussion = """
        Adds the team to the hunt file with a new broker password and signing key, and writes the team's join \
        file (mode 0600; default HUNT-TEAM.hunt beside the hunt file) to hand to the team: chest hunt join FILE. \
        Prints the command that adds the team's user to Mosquitto's password file, and the line that \
        command would write there (USER:$7$…, as mosquitto_passwd of Mosquitto 2 hashes it), to append to the \
        file as it is (docs/HUNTS.md "Broker"). \
        A team name is 1 to 32 letters of any script, digits, spaces, - or _ ("Möwen", "Die Eulen", "Équipe 3"), \
        with no space at either end or two together: it is the team's broker user and topic, as written (in \
        Unicode's NFC). A name that reads as another team's is refused with the name it imitates: "Red" with a \
        Cyrillic e (U+0435) beside "Red" (their Unicode confusable skeletons, UTS #39, are one; docs/HUNTS.md \
        "Team names").

        --colour sets the team's colour on the board: a name (red, blue, green, orange, purple, …) or #rrggbb; \
        without it, a team named after a colour ("blue", "red-foxes") has that colour, others one no team is named after.

        --count N adds N teams at once, PREFIX-1 to PREFIX-N (numbers zero-padded to one width), each with its \
        join file beside the hunt file, and writes the hunt file once: for a city hunt of thousands of teams \
        (docs/HUNTS.md "Sizing").
        """
    static let parameters: [Parameter] = [
        .positional("TEAM", help: "the team's name"),
        .huntFile,
        .option("--colour", value: "COLOUR", help: "the team's colour on the board: a colour name or #rrggbb"),
        .option("--output", "-o", value: "FILE", help: "the team's join file", completion: .files(extension: "hunt")),
        .option("--count", value: "N", help: "add N teams named TEAM-1 to TEAM-N"),
    ]

    var team: String
    var huntPath: String
    var output: String?
    var colour: String?
    var count: Int?

    init(_ values: ParsedValues) throws(UsageError) {
        let typed = values.positional("TEAM")[0]
        guard let name = TeamName(typed: typed) else {
            throw UsageError(
                "\"\(TerminalText.escaped(typed))\" cannot name a team: use \(TeamName.rule) (and not release or \(HuntFile.organiserUser))"
            )
        }
        team = name.rawValue
        huntPath = try values.huntPath("hunt team add")
        count = try values.value("--count", "--count takes a number of teams from 1 to 100000") {
            Int($0).flatMap { (1...100_000).contains($0) ? $0 : nil }
        }
        if let count {
            guard values.value("--output") == nil, values.value("--colour") == nil else {
                throw UsageError(
                    "--count writes each join file beside the hunt file and picks the colours: leave out -o and --colour"
                )
            }
            guard HuntTeam.isValidName(Self.names(prefix: team, count: count).last!) else {
                throw UsageError(
                    "\"\(team)\" with --count \(count) makes team names over 32 characters: use a shorter prefix")
            }
        }
        output = values.value("--output")
        colour = try values.value(
            "--colour", "--colour takes a colour name (red, blue, green, orange, purple, …) or #rrggbb"
        ) {
            TeamColours.isValid($0) ? $0.lowercased() : nil
        }
    }

    func run(settings: Settings) throws {
        if let count { return try addMany(count) }
        var hunt = try HuntFile.read(path: huntPath)
        guard !hunt.isJoinFile else {
            throw ChestError("\(huntPath) is a team's join file; add teams to the organiser's hunt file")
        }
        // `init` checked the name.
        guard let name = TeamName(team) else { throw ChestError("\"\(team)\" cannot name a team") }
        guard hunt.team(named: name) == nil else { throw ChestError("\(huntPath) already has a team \(team)") }
        if let imitated = HuntTeam.imitated(by: team, in: HuntTeam.skeletons(of: hunt.teams.map(\.name.rawValue))) {
            throw Self.imitation(team, of: imitated, huntPath)
        }
        let keys = HuntSigner.newTeamKeys()
        hunt.teams.append(
            HuntTeam(
                name: name, password: HuntSigner.newPassword(), publicKey: keys.publicKey,
                secretKey: keys.secretKey, colour: colour))
        let path = output ?? Self.joinFileName(huntPath: huntPath, team: team)
        guard let join = hunt.joinFile(team: name) else { throw ChestError("cannot make the join file of \(team)") }
        try join.write(to: path)
        try hunt.write(to: huntPath)
        let password = hunt.team(named: name)?.password ?? ""
        (path == "-" ? printError : { print($0) })(
            """
            added team \(team) to \(huntPath); its join file is \(path) (give it to the team: chest hunt join \(Self.shellWord(path)))
            broker: \(Self.passwordLine(team, password))
            password file line: \(MosquittoPassword.line(user: team, password: password))
            """)
    }

    /// Adds `count` teams with one read and one write of the hunt file: adding them one process at a time reads and
    /// rewrites the whole file each time, quadratic in the teams (5,000 took minutes; docs/BENCHMARKS.md "A city").
    private func addMany(_ count: Int) throws {
        var hunt = try HuntFile.read(path: huntPath)
        guard !hunt.isJoinFile else {
            throw ChestError("\(huntPath) is a team's join file; add teams to the organiser's hunt file")
        }
        // `init` checked the longest of the names; the prefix is a name, so every one is.
        let names = Self.names(prefix: team, count: count).compactMap { TeamName($0) }
        let existing = Set(hunt.teams.map(\.name))
        if let taken = names.first(where: existing.contains) {
            throw ChestError("\(huntPath) already has a team \(taken)")
        }
        let skeletons = HuntTeam.skeletons(of: hunt.teams.map(\.name.rawValue))
        for name in names {
            if let imitated = HuntTeam.imitated(by: name.rawValue, in: skeletons) {
                throw Self.imitation(name.rawValue, of: imitated, huntPath)
            }
        }
        for name in names {
            let keys = HuntSigner.newTeamKeys()
            hunt.teams.append(
                HuntTeam(
                    name: name, password: HuntSigner.newPassword(), publicKey: keys.publicKey,
                    secretKey: keys.secretKey, colour: nil))
        }
        var lines: [String] = []
        for team in hunt.teams.suffix(count) {
            let path = Self.joinFileName(huntPath: huntPath, team: team.name.rawValue)
            guard let join = hunt.joinFile(team: team.name) else {
                throw ChestError("cannot make the join file of \(team.name)")
            }
            try join.write(to: path)
            lines.append("broker: " + Self.passwordLine(team.name.rawValue, team.password))
            lines.append(
                "password file line: " + MosquittoPassword.line(user: team.name.rawValue, password: team.password))
        }
        try hunt.write(to: huntPath)
        print(
            "added \(count) teams, \(names[0]) to \(names[names.count - 1]), to \(huntPath); their join files are beside it"
        )
        print(lines.joined(separator: "\n"))
    }

    /// The command that adds the team's user to Mosquitto's password file. The user is the name as written: the
    /// file is `user:hash` lines, the user trimmed of blanks at its ends, and a name has no `:` and no blank at
    /// either end (docs/HUNTS.md "Team names"). Quoted for the shell when it has a space or more than ASCII.
    static func passwordLine(_ team: String, _ password: String) -> String {
        "mosquitto_passwd -b /etc/mosquitto/hunt.passwd \(shellWord(team)) \(password)"
    }

    /// `'Die Eulen'`: a name or a path as one word of a shell, quoted when it has more than letters, digits and
    /// `-_./` of ASCII.
    static func shellWord(_ text: String) -> String {
        let plain = text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
                || "-_./".utf8.contains(byte)
        }
        return plain && !text.isEmpty ? text : "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    /// The refusal of a name that reads as another: the new name with its lookalike letters written out.
    static func imitation(_ name: String, of imitated: String, _ huntPath: String) -> ChestError {
        ChestError(
            "\"\(KnownSenders.revealed(name))\" reads as \"\(TerminalText.escaped(imitated))\", "
                + (HuntTeam.reservedNames.contains(imitated) ? "a name no team can have" : "a team of \(huntPath)")
                + " (one Unicode confusable skeleton, UTS #39): choose a name that does not imitate it")
    }

    /// "team" and 150 → team-001 … team-150.
    static func names(prefix: String, count: Int) -> [String] {
        let width = String(count).count
        return (1...count).map { index in
            let number = String(index)
            return "\(prefix)-\(String(repeating: "0", count: width - number.count))\(number)"
        }
    }

    /// "spring.hunt" and "red" → "spring-red.hunt", beside the hunt file.
    static func joinFileName(huntPath: String, team: String) -> String {
        let stem = huntPath.hasSuffix(".hunt") ? String(huntPath.dropLast(5)) : huntPath
        return "\(stem)-\(team).hunt"
    }
}
