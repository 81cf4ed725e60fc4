import ChestArguments
import ChestCore
import ChestSimulator
import ChestTestSupport
import Foundation
import Testing

@testable import ChestCLI
@testable import ChestDaemon

/// What is written about the command lines outside the code (completion scripts, man pages, README) says what
/// the declarations say.
struct DeclarationsAgreeTests {
    let root = GPSLogs.packageRoot.path

    let environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/nonexistent"]

    func text(_ path: String) throws -> String { try String(contentsOfFile: root + "/" + path, encoding: .utf8) }

    /// Every usage line `chest` declares, as `chest read ID [--json]`.
    /// The program's usage, then each command's, with a group of commands (`chest hunt`) as its leaves.
    var chestUsageLines: [String] {
        func leaves(_ command: any ParsableCommand.Type, _ path: [String]) -> [String] {
            command.subcommands.isEmpty
                ? HelpText.usageLines(of: command, path: path)
                : command.subcommands.flatMap { leaves($0, path + [$0.name]) }
        }
        return HelpText.usageLines(of: Chest.self, path: ["chest"])
            + Chest.subcommands.flatMap { leaves($0, ["chest", $0.name]) }
    }

    @Test(arguments: [
        ("bash", "completion/chest.bash"), ("zsh", "completion/_chest"), ("fish", "completion/chest.fish"),
    ])
    func committedCompletionScriptsAreWhatTheBinaryGenerates(shell: String, path: String) throws {
        let outcome = try Subprocess.run(
            ChestHarness.products + "/chest", ["--generate-completion-script", shell], environment: environment)
        #expect(outcome.status == 0)
        #expect(outcome.stdout == (try text(path)), "regenerate: chest --generate-completion-script \(shell) > \(path)")
        #expect(
            outcome.stdout == CompletionScript.script(for: Chest.self, shell: CompletionScript.Shell(rawValue: shell)!))
    }

    @Test(arguments: [
        (["chest", "imp"], "import"),
        (["chest", "--so"], "--socket"),
        (["chest", "list", "--"], "--saved --json --help"),
        (["chest", "--chest", "/tmp", "wa"], "watch"),
        (["chest", "compose", "--lock", "weather", "=", "sn"], "snowy"),
        (["chest", "compose", "--page", "x", "--lock", "te"], "temperature="),
        (["chest", "config", "--unset", "hook"], "hook hook.timeoutSeconds"),
        (["chest", "help", "del"], "delete"),
        (["chest", "--generate-completion-script", "f"], "fish"),
    ])
    func bashCompletesWithoutTheBashCompletionPackage(words: [String], expected: String) throws {
        let script =
            #"source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _chest; echo "${COMPREPLY[*]}""#
        let outcome = try Subprocess.run(
            "/bin/bash", ["--norc", "-c", script, "bash", root + "/completion/chest.bash"] + words,
            environment: environment)
        #expect(outcome.stdout == expected + "\n", "\(outcome.stderr)")
    }

    /// The text of a man page's SYNOPSIS, one line per `.br` or `.PP`, with the fonts and escapes taken out.
    func synopsis(_ page: String) throws -> [String] {
        let lines = try text(page).split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex(of: ".SH SYNOPSIS")) + 1
        let end = try #require(lines[start...].firstIndex { $0.hasPrefix(".SH") })
        var result = [""]
        for line in lines[start..<end] {
            if line == ".br" || line == ".PP" {
                result.append("")
            } else {
                result[result.count - 1] += (result[result.count - 1].isEmpty ? "" : " ") + Self.roffText(line)
            }
        }
        return result.map { $0.replacingOccurrences(of: "  ", with: " ") }
    }

    /// One line of roff as it reads: `.RB [ \-\-page` is `[--page`.
    static func roffText(_ line: String) -> String {
        var text = line
        if line.hasPrefix(".") {
            let macro = String(line.prefix { $0 != " " })
            var arguments: [String] = []
            var current = ""
            var quoted = false
            for character in line.dropFirst(macro.count) {
                if character == "\"" {
                    quoted.toggle()
                } else if character == " " && !quoted {
                    if !current.isEmpty { arguments.append(current) }
                    current = ""
                } else {
                    current.append(character)
                }
            }
            if !current.isEmpty { arguments.append(current) }
            text = arguments.joined(separator: [".B", ".I"].contains(macro) ? " " : "")
        }
        for (escape, plain) in [
            (#"\-"#, "-"), (#"\&"#, ""), (#"\fB"#, ""), (#"\fI"#, ""), (#"\fR"#, ""), (#"\fP"#, ""),
        ] {
            text = text.replacingOccurrences(of: escape, with: plain)
        }
        return text
    }

    @Test func chestManPageSynopsisIsTheDeclaredUsage() throws {
        #expect(try synopsis("docs/man/chest.1") == chestUsageLines)
    }

    @Test func chestdManPageSynopsisIsTheDeclaredUsage() throws {
        #expect(try synopsis("docs/man/chestd.8") == HelpText.usageLines(of: DaemonOptions.self, path: ["chestd"]))
    }

    /// The man page's OPTIONS and COMMANDS, between its two marker lines, are what `chest --generate-man-page` writes
    /// from the declarations: the reference a reader finds with `man chest` is the help `chest COMMAND --help` prints.
    @Test func chestManPageReferenceIsWhatTheDeclarationsGenerate() throws {
        let page = try text("docs/man/chest.1")
        let begin = try #require(
            page.range(of: ManPage.beginMarker + "\n"), "docs/man/chest.1 lost its \(ManPage.beginMarker) line")
        let end = try #require(
            page.range(of: ManPage.endMarker + "\n", range: begin.upperBound..<page.endIndex),
            "docs/man/chest.1 lost its \(ManPage.endMarker) line")
        #expect(
            String(page[begin.lowerBound..<end.upperBound]) == ManPage.reference(for: Chest.self),
            "docs/man/chest.1 is not what the declarations generate: run make man")
        let outcome = try Subprocess.run(
            ChestHarness.products + "/chest", ["--generate-man-page"], environment: environment)
        #expect(outcome.status == 0 && outcome.stdout == ManPage.reference(for: Chest.self), "\(outcome.stderr)")
    }

    /// Every command and subcommand has its own section, in the order `chest help` lists them.
    @Test func eachCommandOfTheManPageHasASection() throws {
        let headings = try text("docs/man/chest.1").split(separator: "\n").filter { $0.hasPrefix(".SS ") }
            .map { $0.dropFirst(4).replacingOccurrences(of: "\"", with: "") }
        func paths(_ command: any ParsableCommand.Type, _ path: [String]) -> [String] {
            [path.joined(separator: " ")] + command.subcommands.flatMap { paths($0, path + [$0.name]) }
        }
        #expect(headings == Chest.subcommands.flatMap { paths($0, ["chest", $0.name]) })
    }

    /// The man pages format without a warning (groff's -ww: every warning), as `man` shows them.
    @Test(arguments: ["docs/man/chest.1", "docs/man/chestd.8", "docs/man/chest-walk.1"])
    func manPageFormatsWithoutWarnings(page: String) throws {
        let outcome = try Subprocess.run(
            "/usr/bin/groff", ["-man", "-ww", "-z", root + "/" + page], environment: environment)
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(page): \(outcome.stderr)")
    }

    /// The README is a short guide: it sends the reader to `man chest` for the commands, and names them all there.
    @Test func readmeSendsTheReaderToTheManPageForEveryCommand() throws {
        let readme = try text("README.md")
        let commands = Chest.subcommands.map { $0.name }.filter { $0 != "help" }
        #expect(readme.contains("`man chest`: every command (" + commands.joined(separator: ", ") + ")"))
        #expect(readme.split(separator: "\n").count <= 320, "README.md is a guide to read in five minutes")
    }

    /// A mistake on chestd's command line is followed by its usage line whole, not by the help's first line, which
    /// is wrapped to the terminal.
    @Test func chestdFollowsAMistakeWithItsWholeUsageLine() throws {
        let wrong = try Subprocess.run(
            ChestHarness.products + "/chestd", ["--gpsd", "nonsense:port:x"], environment: environment)
        #expect(wrong.status == 64)
        #expect(
            wrong.stderr
                == "chestd: --gpsd \"nonsense:port:x\": gpsd is HOST:PORT with a port from 1 to 65535, such as "
                + "localhost:2947\nusage: chestd [--chest DIR] [--gpsd HOST:PORT] [--socket PATH] [--config FILE] "
                + "[--weather-url URL] [-v]\n", "\(wrong.stderr)")
    }

    @Test func chestWalkReadsItsLineWithTheSameParser() throws {
        let walk = ChestHarness.products + "/chest-walk"
        let help = try Subprocess.run(walk, ["--help"], environment: environment)
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: chest-walk [FILE]"))
        // Wrapped to the width of its output: the same words in the same order.
        func words(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(words(help.stdout).contains(words(NMEAWalk.descriptionFormat)))
        #expect(help.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(help.stdout)")
        #expect(
            try Subprocess.run(walk, [root + "/demo/walk.txt", "-h"], environment: environment).stdout == help.stdout)
        let wrong = try Subprocess.run(walk, ["--fil"], environment: environment)
        #expect(wrong.status == 64 && wrong.stderr.contains("unknown option --fil"))
        let extra = try Subprocess.run(walk, ["a", "b"], environment: environment)
        #expect(extra.status == 64 && extra.stderr == "chest-walk: usage: chest-walk [FILE] [--gpx]\n")
        let log = try Subprocess.run(walk, ["--", root + "/demo/walk.txt"], environment: environment)
        #expect(log.status == 0 && log.stdout.hasPrefix("# Generated by chest-walk."))
    }
}

/// Issue 32: the guides speak of one format version for what compose writes today, the one it writes.
struct FormatVersionInDocsTests {
    @Test func readmeQuestAndHuntsSpeakOfTheFormatComposeWrites() throws {
        let root = GPSLogs.packageRoot.path
        // The sentences that say what compose (or a quest) writes by default.
        let patterns = [
            #"[Ff]iles are format (\d)"#, #"built in format (\d)"#, #"writes format (\d)"#, #"default,? format (\d)"#,
            #"(\d), the default"#,
        ]
        for doc in ["README.md", "docs/QUEST.md", "docs/HUNTS.md"] {
            let text = try String(contentsOfFile: root + "/" + doc, encoding: .utf8).replacingOccurrences(
                of: "\n", with: " ")
            var said: [String] = []
            for pattern in patterns {
                let expression = try Regex(pattern)
                said += text.matches(of: expression).compactMap { $0.output[1].substring.map(String.init) }
            }
            #expect(!said.isEmpty, "\(doc) says which format compose writes")
            // Format 4 only for a place sealed with a PIN (docs/FORMAT.md "Format 4"): the guides say format 3 and that.
            #expect(
                said.allSatisfy { $0 == "\(MessageFile.baseVersion)" },
                "\(doc) speaks of format \(said), compose writes \(MessageFile.baseVersion)")
            #expect(!text.contains("format 2 only"), "\(doc)")
        }
    }
}
