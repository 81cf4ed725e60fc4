import ChestArguments
import ChestCore
import ChestIO
import Foundation
import Testing

@testable import ChestCLI
@testable import ChestDaemon

/// `chest` and `chestd` read their command lines with the one parser and the declarations.
struct CommandLineTests {
    func values(_ arguments: [String]) throws(UsageError) -> ParsedValues {
        let invocation = try ArgumentParser.parse(arguments, root: Chest.self)
        return invocation.path[invocation.path.count - 1]
    }

    func compose(_ arguments: [String]) throws(UsageError) -> ComposeDraft {
        try ComposeCommand(values(["compose"] + arguments), timeZone: Zone(identifier: "UTC")!).draft
    }

    func error(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return (error as? UsageError)?.description ?? "not a usage error: \(error)"
        }
    }

    @Test(arguments: Chest.subcommands.map { $0.name })
    func everyCommandHasHelpAndHelpCommandPrintsTheSame(name: String) throws {
        for flag in ["-h", "--help"] {
            let help = try #require(try ArgumentParser.parse([name, flag], root: Chest.self).help)
            #expect(help.hasPrefix("usage: chest \(name)"))
            let topic = try HelpCommand(values(["help", name])).topic
            #expect(topic.map { HelpText.help(for: $0, path: ["chest", $0.name]) } == help)
        }
    }

    /// Every command of chest and chestd, with its path.
    static func everyCommand() -> [(command: any ParsableCommand.Type, path: [String])] {
        func below(_ command: any ParsableCommand.Type, _ path: [String]) -> [(
            command: any ParsableCommand.Type, path: [String]
        )] {
            [(command, path)] + command.subcommands.flatMap { below($0, path + [$0.name]) }
        }
        return below(Chest.self, ["chest"]) + [(DaemonOptions.self, ["chestd"])]
    }

    @Test func everyHelpFitsEightyColumnsAndItsProseIsWrappedByTheProgramNotByHand() {
        for (command, path) in Self.everyCommand() {
            let help = HelpText.help(for: command, path: path, columns: 80)
            let long = help.split(separator: "\n").filter { $0.count > 80 }.map(String.init)
            #expect(long.isEmpty, "\(path.joined(separator: " ")): \(long)")
            let wide = HelpText.help(for: command, path: path, columns: 10_000)
            #expect(help.split(whereSeparator: \.isWhitespace) == wide.split(whereSeparator: \.isWhitespace))
            // A prose line of the declaration ends where a sentence or a list's heading does; one that stops in the
            // middle was broken by hand, and would be broken again at another width.
            for line in command.discussion.split(separator: "\n") where line.first != " " {
                #expect(".:)\"`".contains(line.last!), "\(path.joined(separator: " ")): \(String(line.suffix(40)))")
            }
        }
    }

    @Test func helpForAnUnknownCommandIsAUsageError() {
        #expect(
            error { _ = try HelpCommand(values(["help", "bogus"])) }?.hasPrefix(#"unknown command "bogus""#) == true)
        #expect(error { _ = try HelpCommand(values(["help", "imprt"])) }?.contains(#"did you mean "import"?"#) == true)
    }

    @Test func globalOptionsTakeTheirValueEitherWay() throws {
        for arguments in [["--socket", "/s", "--chest", "/c", "list"], ["--socket=/s", "--chest=/c", "list"]] {
            let chest = try Chest(ArgumentParser.parse(arguments, root: Chest.self).path[0])
            #expect(chest.flags == [.socket: "/s", .chest: "/c"])
        }
        #expect(try WatchCommand(values(["watch", "--count=3", "--timeout", "2.5"])).count == 3)
        #expect(try PinCommand(values(["pin", "7f3a", "4821", "--page=2"])).page == 2)
        #expect(
            error { _ = try WatchCommand(values(["watch", "--count", "zero"])) } == "--count wants a positive number")
    }

    @Test func watchShowsWhatItIsAskedFor() throws {
        let plain = try WatchCommand(values(["watch"]))
        #expect(ChestEvent.names.filter(plain.shows) == ChestEvent.names.filter { $0 != "fix" })
        #expect(try WatchCommand(values(["watch", "--fixes"])).shows("fix"))
        #expect(try WatchCommand(values(["watch", "--json"])).shows("fix"))
        let some = try WatchCommand(values(["watch", "--events", "unlocked,rejected"]))
        #expect(ChestEvent.names.filter(some.shows) == ["unlocked", "rejected"])
        #expect(
            error { _ = try WatchCommand(values(["watch", "--events", ","])) }
                == "--events wants a list such as unlocked,rejected")
    }

    @Test func shortIDsAreTheShortestUniquePrefixOfAtLeastEight() {
        let a = MessageID("7f3a21c0d9e84b6a8c1f2e3d4c5b6a79")!
        let b = MessageID("7f3a21c0d9000000000000000000000a")!
        var ids = ShortIDs()
        ids.insert([a])
        #expect(ids.short(a) == "7f3a21c0")
        ids.insert([b])
        #expect(ids.short(a) == "7f3a21c0d9e" && ids.short(b) == "7f3a21c0d90")
    }

    @Test func composeReadsLocksInOrderIntoSetsAAndB() throws {
        let draft = try compose([
            "-o", "f", "--title", "T", "--page", "one", "--lock", "pin=1234", "--or",
            "--lock", "weather=snowy", "--page=two", "--lock=time=2026-12-01T09:00:00Z",
        ])
        #expect(draft.output == "f" && draft.title == "T")
        #expect(draft.pages.map(\.text) == ["one", "two"])
        #expect(draft.pages[0].setA == [.pin(digits: "1234")])
        #expect(draft.pages[0].setB == [.lock(.weather(.snowy))])
        #expect(draft.pages[1].setA.count == 1 && draft.pages[1].setB.isEmpty)
    }

    @Test func composeMistakesSayWhatToWrite() {
        let base = ["-o", "f", "--title", "x"]
        #expect(error { _ = try compose(["--title", "x", "--page", "p"]) }?.hasPrefix("compose needs -o FILE") == true)
        #expect(
            error { _ = try compose(base + ["--lock", "pin=1234"]) }
                == "--lock pin=1234 comes before any --page; write --page TEXT first")
        #expect(
            error { _ = try compose(base + ["--page", "p", "--lock", "pin=1234", "--lock", "pin=5678"]) }
                == "page 1 has two pin locks in set A; use --or for an alternative")
        #expect(error { _ = try compose(base + ["--page", "p", "--or"]) }?.contains("follows no --lock") == true)
        #expect(
            error { _ = try compose(base + ["--page", "p", "--lock", "pin=1234", "--or", "--or"]) }?
                .contains("already has its --or") == true)
        #expect(
            error { _ = try compose(base + Array(repeating: ["--page", "p"], count: 6).flatMap { $0 }) }
                == "a message has at most 5 pages")
        #expect(
            error { _ = try compose(base + ["stray"]) } == #"compose: unexpected "stray"; see `chest compose --help`"#)
    }

    @Test func configReadsItsTwoForms() throws {
        #expect(try ConfigCommand(values(["config"])).action == .show)
        #expect(try ConfigCommand(values(["config", "name"])).action == .get(.name))
        #expect(try ConfigCommand(values(["config", "name", "Alice"])).action == .set(.name, "Alice"))
        #expect(try ConfigCommand(values(["config", "--unset=weather.key"])).action == .unset(.weatherKey))
        #expect(
            error { _ = try ConfigCommand(values(["config", "nmae"])) }?.hasPrefix(#"unknown setting "nmae""#) == true)
        #expect(
            error { _ = try values(["config", "a", "b", "c"]) }
                == "usage: chest config [KEY [VALUE]] | chest config --unset KEY")
    }

    @Test func chestdTakesValuesEitherWay() throws {
        for arguments in [["--chest", "/c", "--gpsd", "h:1", "-v"], ["--chest=/c", "--gpsd=h:1", "--verbose"]] {
            let options = try DaemonOptions.parse(arguments)
            #expect(options.flags == [.chest: "/c", .gpsd: "h:1"] && options.verbose && !options.help)
        }
        #expect(try DaemonOptions.parse(["--weather-url=http://x"]).flags == [.weatherURL: "http://x"])
        #expect(try DaemonOptions.parse(["-v", "-h"]).help)
        #expect(try DaemonOptions.parse(["--version"]).version)
        #expect(DaemonOptions.usage.hasPrefix("usage: chestd [--chest DIR] [--gpsd HOST:PORT]"))
        // The rule the config file's value meets, so that chestd never retries an address it cannot use.
        for bad in ["nohost", "nonsense:port:x", "h:0", "h:65536", ":2947"] {
            #expect(
                error { _ = try DaemonOptions.parse(["--gpsd", bad]) }
                    == "--gpsd \"\(bad)\": gpsd is HOST:PORT with a port from 1 to 65535, such as localhost:2947")
        }
        #expect(try DaemonOptions.parse(["--gpsd", "[::1]:2947"]).flags == [.gpsd: "[::1]:2947"])
        #expect(
            error { _ = try DaemonOptions.parse(["--weather-url", "ftp://x"]) }?.hasPrefix(
                #"--weather-url "ftp://x": weather.url is an http://"#) == true)
        #expect(error { _ = try DaemonOptions.parse(["--chest", ""]) } == "--chest needs a value")
        #expect(error { _ = try DaemonOptions.parse(["--chst", "x"]) }?.contains("did you mean --chest?") == true)
        #expect(error { _ = try DaemonOptions.parse(["stray"]) }?.hasPrefix(#"unexpected "stray""#) == true)
    }
}

/// The board's journal is read a line at a time, and a line too long to be one the board writes now (junk an older
/// board kept in full) is skipped without being held (docs/HUNTS.md "The board").
@Suite struct BoardJournalTests {
    @Test func linesAreReadAcrossChunksAndAnOverlongOneIsSkipped() throws {
        let path = NSTemporaryDirectory() + "chest-journal-\(UUID()).board"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let long = String(repeating: "x", count: 200_000)
        try Data(("first\n" + long + "\n" + String(repeating: "j", count: 3 << 20) + "\nlast").utf8)
            .write(to: URL(fileURLWithPath: path))
        var lines: [Int] = []
        try BoardFeed.forEachLine(of: path) { lines.append($0.count) }
        #expect(lines == [5, 200_000, 4])
    }
}
