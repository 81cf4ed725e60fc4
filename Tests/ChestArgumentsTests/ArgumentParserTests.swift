import ChestArguments
import Testing

/// A program with every kind of parameter, and a subcommand.
struct Tool: ParsableCommand {
    static let name = "tool"
    static let abstract = "A tool for tests."
    static let parameters: [Parameter] = [
        .option("--socket", value: "PATH", help: "a socket"),
        .flag("--version", help: "show the version", inUsage: false),
    ]
    static var subcommands: [any ParsableCommand.Type] { [Make.self, Show.self] }

    init(_ values: ParsedValues) {}
}

struct Make: ParsableCommand {
    static let name = "make"
    static let abstract = "make things"
    static let parameters: [Parameter] = [
        .option("--output", "-o", value: "FILE", help: "where"),
        .option("--page", value: "TEXT", help: "a page", repeatable: true),
        .flag("--or", help: "switch", repeatable: true),
        .flag("--json", help: "JSON"),
    ]

    init(_ values: ParsedValues) {}
}

struct Show: ParsableCommand {
    static let name = "show"
    static let abstract = "show things"
    static let parameters: [Parameter] = [
        .positional("ID", help: "which"),
        .positional("KEY", arity: .optional, help: "a key"),
        .positional("VALUE", arity: .optional, help: "a value"),
    ]

    init(_ values: ParsedValues) {}
}

struct ArgumentParserTests {
    func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        try ArgumentParser.parse(arguments, root: Tool.self)
    }

    func error(_ arguments: [String]) -> String? {
        do {
            _ = try parse(arguments)
            return nil
        } catch {
            return error.description
        }
    }

    @Test(arguments: [
        ["--socket", "/s", "make", "--output", "f"], ["--socket=/s", "make", "--output=f"],
        ["--socket", "/s", "make", "-o", "f"],
    ])
    func anOptionTakesItsValueAfterASpaceOrAnEqualsSign(arguments: [String]) throws {
        let invocation = try parse(arguments)
        #expect(invocation.path[0].value("--socket") == "/s")
        #expect(invocation.path[1].value("--output") == "f")
        #expect(invocation.commands.map { $0.name } == ["tool", "make"])
    }

    @Test func occurrencesKeepTheirOrder() throws {
        let values = try parse(["make", "--page", "one", "--or", "--page=two", "--json"]).path[1]
        #expect(values.occurrences.map(\.name) == ["--page", "--or", "--page", "--json"])
        #expect(values.values("--page") == ["one", "two"])
        #expect(values.flag("--json") && !values.flag("--output"))
    }

    @Test(arguments: [
        ["-h"], ["--help"], ["make", "-h"], ["make", "--bogus", "--help"], ["make", "--output", "-h"],
        ["show", "-h"], ["--socket", "x", "--help"],
    ])
    func helpAnywhereBeforeDoubleDashWins(arguments: [String]) throws {
        let help = try #require(try parse(arguments).help)
        let command = arguments.contains("make") ? "tool make" : arguments.contains("show") ? "tool show" : "tool"
        #expect(help.hasPrefix("usage: \(command)"))
        #expect(help.contains("-h, --help"))
    }

    @Test func doubleDashEndsTheOptions() throws {
        let values = try parse(["show", "--", "-h", "--x"]).path[1]
        #expect(values.positionals == ["-h", "--x"])
        #expect(try parse(["show", "--", "-h"]).help == nil)
    }

    @Test func positionalsFillInOrder() throws {
        let values = try parse(["show", "a", "b"]).path[1]
        #expect(values.positional("ID") == ["a"])
        #expect(values.positional("KEY") == ["b"])
        #expect(values.positional("VALUE") == [])
    }

    @Test func mistakesAreUsageErrorsThatSayWhatToWrite() {
        #expect(error(["mkae"]) == #"unknown command "mkae"; did you mean "make"? the commands are make, show"#)
        #expect(error(["frobnicate"]) == #"unknown command "frobnicate"; the commands are make, show"#)
        #expect(error(["make", "--jsn"]) == "make: unknown option --jsn; did you mean --json? see `tool make --help`")
        #expect(error(["--sockt", "x"]) == "unknown option --sockt; did you mean --socket? see `tool --help`")
        #expect(error(["make", "--output"]) == "make: --output needs a value")
        #expect(error(["make", "--json=yes"]) == "make: --json takes no value")
        #expect(error(["make", "--json", "--json"]) == "make: --json is given twice")
        #expect(error(["make", "stray"]) == #"make: unexpected "stray"; see `tool make --help`"#)
        #expect(error(["show"]) == "usage: tool show ID [KEY [VALUE]]")
        #expect(error(["show", "a", "b", "c", "d"]) == "usage: tool show ID [KEY [VALUE]]")
        #expect(UsageError.exitStatus == 64)
    }

    @Test func aNegativeNumberIsAPositional() throws {
        #expect(try parse(["show", "-5"]).path[1].positionals == ["-5"])
    }

    @Test func helpListsTheTableAndTheUsageLineLeavesOutReportingFlags() {
        let help = HelpText.help(for: Tool.self, path: ["tool"])
        #expect(help.hasPrefix("usage: tool [--socket PATH] COMMAND [ARGS]\n\nA tool for tests.\n"))
        #expect(help.contains("  --version"))
        #expect(help.contains("commands:\n  make"))
        #expect(HelpText.help(for: Make.self, path: ["tool", "make"]).contains("  -o, --output FILE   where"))
        #expect(
            HelpText.usageLines(of: Make.self, path: ["tool", "make"])
                == ["tool make [-o FILE] [--page TEXT]... [--or]... [--json]"])
    }

    @Test func suggestionsAreNearestByEditDistance() {
        #expect(Suggestion.distance("kitten", "sitting") == 3)
        #expect(Suggestion.distance("mkae", "make") == 1)
        #expect(Suggestion.nearest(to: "imp", in: ["import", "list"]) == "import")
        #expect(Suggestion.nearest(to: "frobnicate", in: ["import", "list"]) == nil)
    }
}
