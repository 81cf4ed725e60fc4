import ChestTestSupport
import Foundation
import Glibc
import Testing

/// The command line as a person meets it, through the built binaries: the README's first example, watch on a
/// terminal and through a pipe, help, config, the wording of times and of a stopped chestd, compose and import.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(5)))
struct FirstMinutesTests {
    /// Runs `script` under bash as `user` in the harness's root, with the built programs first on PATH.
    func shell(
        _ world: ChestHarness, _ script: String, user: String = "reader",
        extra: [String: String] = [:]
    ) throws -> Subprocess.Outcome {
        var environment = world.environment(user: user)
        environment["PATH"] = ChestHarness.products + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment.merge(extra) { $1 }
        return try Subprocess.run(
            "/usr/bin/timeout", ["90", "/bin/bash", "-c", script], environment: environment,
            directory: world.root)
    }

    /// Waits until `chest watch` holds its subscription: a connection to chestd's socket (an accepted one is listed
    /// under the socket's path in /proc/net/unix, as `ChestHarness.connections` reads it) still open 0.3 s later. Any
    /// connected socket was not enough: watch first lists the chests over short connections, and an import that came
    /// during one of them was missed by the subscription that followed (a test failed so, once, under load).
    static let untilWatching = #"""
        while :; do \
        a=$(awk -v s="$CHEST_SOCKET" '$6 == "03" && $8 == s { print $7 }' /proc/net/unix); sleep 0.3; \
        b=" $(awk -v s="$CHEST_SOCKET" '$6 == "03" && $8 == s { print $7 }' /proc/net/unix | tr '\n' ' ') "; \
        for i in $a; do case "$b" in *" $i "*) break 2 ;; esac; done; \
        done
        """#

    /// A one-page message sealed by someone else that opens `seconds` from now, written to NAME in the root.
    func composeAsAlice(_ world: ChestHarness, _ name: String, seconds: Int, text: String = "It opened.") throws {
        let compose = try shell(
            world,
            """
            chest compose -o \(name) --title Soon --from Alice --page '\(text)' --lock time=$(date -d '+\(seconds) sec' -Iseconds)
            """, user: "alice")
        #expect(compose.status == 0, "\(compose.stderr)")
    }

    @Test func readmeFirstUnlockOpensAPageForOnePersonAlone() throws {
        let world = ChestHarness()
        let readme = try String(contentsOf: GPSLogs.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## A first unlock")).upperBound
        let block = readme[section...].components(separatedBy: "```")[1]
        var commands: [String] = []
        for line in block.split(separator: "\n") {
            if line.hasPrefix("$ ") {
                commands.append(String(line.dropFirst(2)))
            } else if !commands.isEmpty {
                commands[commands.count - 1] += "\n" + line
            }
        }
        #expect(commands.count == 4)
        let outcome = try shell(world, "trap 'kill $(jobs -pr) 2>/dev/null' EXIT\n" + commands.joined(separator: "\n"))
        #expect(outcome.status == 0, "\(outcome.stdout)\n\(outcome.stderr)")
        #expect(
            outcome.stdout.contains("unlocked") && outcome.stdout.contains("\"Hello\" page 1 is open"),
            "\(outcome.stdout)")
        #expect(outcome.stdout.contains("          You waited three seconds."), "\(outcome.stdout)")
        #expect(outcome.stderr.contains("made your identity"), "\(outcome.stderr)")
    }

    @Test func watchShowsUnlocksWithTheirTextInColourOnATerminalOnly() throws {
        let world = ChestHarness()
        try world.startDaemon()
        try composeAsAlice(world, "soon.locked", seconds: 3, text: "Line one.\nLine two.")
        let watch = "chest watch --count 2 --timeout 30"
        let outcome = try shell(
            world,
            """
            (\(Self.untilWatching); chest import soon.locked >/dev/null) &
            script -qfec '\(watch)' /dev/null
            """)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.first?.contains("\u{1B}[36mingested") == true, "\(lines)")
        #expect(lines.dropFirst().first?.contains("\u{1B}[1;32munlocked") == true, "\(lines)")
        #expect(lines.suffix(2) == ["          Line one.", "          Line two."])
        let id = try #require(world.list().first?["id"]?.string)
        #expect(lines[1].hasSuffix("(\(id.prefix(8)))"), "\(lines)")
        // Through a pipe, and on a terminal with NO_COLOR: no colour.
        try composeAsAlice(world, "later.locked", seconds: 2)
        let piped = try shell(
            world,
            "(\(Self.untilWatching); chest import later.locked >/dev/null) & chest watch --count 1 --events unlocked --utc"
        )
        #expect(
            !piped.stdout.contains("\u{1B}") && piped.stdout.contains("unlocked   \"Soon\" page 1 is open"),
            "\(piped.stdout)")
        let clock = try #require(piped.stdout.split(separator: " ").first)
        #expect(clock.count == 8 && clock.filter { $0 == ":" }.count == 2, "\(piped.stdout)")
        let plain = try shell(world, "script -qfec 'chest watch --timeout 1' /dev/null", extra: ["NO_COLOR": "1"])
        #expect(!plain.stdout.contains("\u{1B}"))
    }

    @Test func watchWaitsForARestartedChestdAndSaysSo() throws {
        let world = ChestHarness()
        try world.startDaemon()
        try composeAsAlice(world, "soon.locked", seconds: 1)
        let out = world.root + "/watch.out"
        let err = world.root + "/watch.err"
        var environment = world.environment()
        let watcher = try world.spawnClient(
            ["watch", "--count", "1", "--events", "unlocked", "--timeout", "40"],
            environment: environment, stdout: out, stderr: err)
        world.stopDaemon()
        try world.waitUntil("watch says it waits", timeout: 10) {
            ((try? String(contentsOfFile: err, encoding: .utf8)) ?? "").contains("waiting for it to come back")
        }
        try world.startDaemon()
        #expect(try world.chest(["import", "soon.locked"]).status == 0)
        #expect(watcher.wait() == 0)
        #expect(try String(contentsOfFile: err, encoding: .utf8).contains("chestd is back"))
        #expect(try String(contentsOfFile: out, encoding: .utf8).contains("\"Soon\" page 1 is open"))
        // --no-reconnect: chestd stopping ends the watch with status 1.
        environment["CHEST_SOCKET"] = world.socket
        let quitter = try world.spawnClient(
            ["watch", "--no-reconnect"], environment: environment, stdout: out, stderr: err)
        world.stopDaemon()
        #expect(quitter.wait() == 1)
    }

    @Test func helpAndUsageErrors() throws {
        let world = ChestHarness()
        for name in [
            "compose", "import", "list", "read", "pin", "save", "unsave", "delete", "undelete", "status", "watch",
            "config", "help",
        ] {
            for flag in ["-h", "--help"] {
                let outcome = try world.chest([name, flag])
                #expect(outcome.status == 0 && outcome.stdout.hasPrefix("usage: chest \(name)"), "\(name) \(flag)")
            }
        }
        let bogus = try world.chest(["help", "bogus"])
        #expect(bogus.status == 64 && bogus.stderr.contains(#"unknown command "bogus""#))
        let typo = try world.chest(["lsit"])
        #expect(typo.status == 64 && typo.stderr.contains(#"did you mean "list"?"#))
        let option = try world.chest(["watch", "--cuont", "1"])
        #expect(option.status == 64 && option.stderr.contains("did you mean --count?"))
        let event = try world.chest(["watch", "--events", "unlocekd"])
        #expect(event.status == 64 && event.stderr.contains("did you mean unlocked?"), "\(event.stderr)")
    }

    @Test func configRefusesValuesChestdCannotUseAndChestdReloads() throws {
        let world = ChestHarness()
        for (key, value, allowed) in [
            ("notify", "maybe", "true or false"), ("hook.timeoutSeconds", "abc", "seconds"),
            ("gpsd", "localhost:notaport", "HOST:PORT"), ("weather.maxAgeMinutes", "-5", "minutes from 1"),
        ] {
            let outcome = try world.chest(["config", key, value])
            #expect(outcome.status == 64 && outcome.stderr.contains(allowed), "\(key): \(outcome.stderr)")
        }
        let offline = try world.chest(["config", "name", "Reader"])
        #expect(offline.stdout == "name set; chestd is not running; it reads the settings when it starts\n")
        try world.startDaemon()
        let online = try world.chest(["config", "notify", "false"])
        #expect(online.stdout == "notify set; chestd reloaded its settings\n", "\(online.stdout)\(online.stderr)")
        world.signalDaemon(SIGHUP)
        try world.waitUntil("SIGHUP reloads", timeout: 10) {
            world.daemonLog.components(separatedBy: "settings reloaded").count == 3
        }
        let shown = try world.chest(["config"]).stdout
        for row in [
            #"name\s+Reader\s+config file"#, #"chest\s+\S+\s+environment \(\$CHEST_DIR\)"#,
            #"notify\s+false\s+config file"#,
            #"hook.timeoutSeconds\s+10\s+default"#,
        ] {
            #expect(shown.range(of: row, options: .regularExpression) != nil, "\(row) in\n\(shown)")
        }
    }

    @Test func aValueEditedByHandThatChestdCannotUseIsNamedNotQuietlyDropped() throws {
        let world = ChestHarness()
        let file = world.root + "/config-reader/chest/config.json"
        try FileManager.default.createDirectory(
            atPath: world.root + "/config-reader/chest", withIntermediateDirectories: true)
        try Data(#"{"weather.maxAgeMinutes": "half an hour", "nmae": "Reader"}"#.utf8).write(
            to: URL(fileURLWithPath: file))
        let shown = try world.chest(["config"])
        #expect(
            shown.stdout.contains("not used: \(file): weather.maxAgeMinutes is a number of minutes"), "\(shown.stdout)")
        #expect(shown.stdout.contains("ignored (unknown to this chest): nmae"))
        let listed = try world.chest(["list"])
        #expect(
            listed.stderr.contains(
                "weather.maxAgeMinutes is a number of minutes from 1 to 1440, such as 30, not \"half an hour\"; fix it with chest config weather.maxAgeMinutes VALUE; it is not used"
            ), "\(listed.stderr)")
        try world.startDaemon(waitForSocket: false)
        let status = try #require(world.daemonProcess?.wait())
        world.daemonProcess = nil
        #expect(status == 1 && world.daemonLog.contains("chestd: \(file): weather.maxAgeMinutes"), "\(world.daemonLog)")
        #expect(try world.chest(["config", "weather.maxAgeMinutes", "30"]).status == 0)
        try world.startDaemon()
    }

    @Test func timesReadToTheSecondAndAStoppedChestdIsExplained() throws {
        let world = ChestHarness()
        let down = try world.chest(["status"])
        #expect(down.status == 1 && down.stdout.hasPrefix("chestd     not running"), "\(down.stdout)")
        #expect(down.stdout.contains("chest      \(world.chest): 0 messages, 0 saved"))
        #expect(down.stderr.contains("start it with"))
        try world.startDaemon()
        try composeAsAlice(world, "soon.locked", seconds: 90)
        #expect(try world.chest(["import", "soon.locked"]).status == 0)
        let read = try world.chest(["read", try #require(world.list().first?["id"]?.string)])
        #expect(
            read.stdout.range(of: #"opens at \d\d:\d\d:\d\d \(in (8\d|90) s\)"#, options: .regularExpression) != nil
                || read.stdout.contains("opens at 20"), "\(read.stdout)")
        let status = try world.chest(["status"])
        #expect(status.stdout.contains("no GPS fix yet: gpsd is not connected"), "\(status.stdout)")
        // The log: a time on each line, unless journald keeps the time itself.
        let first = try #require(world.daemonLog.split(separator: "\n").first)
        #expect(
            first.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d chestd: "#, options: .regularExpression) != nil,
            "\(first)")
    }

    @Test func composeWritesWhereAndWhatItIsToldAndWarns() throws {
        let world = ChestHarness()
        try "A story too long for an argument.\n".write(
            toFile: world.root + "/story.txt", atomically: true, encoding: .utf8)
        let first = try shell(
            world,
            "echo 'from standard input' | chest compose --format 1 -o a.locked --title T --page @story.txt --page - --lock location=47.1,8.5/30 --lock time=2020-01-01T00:00:00Z"
        )
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("the radius has no unit; read as 30 m"))
        #expect(first.stderr.contains("page 2: the time 2020-01-01 00:00:00 GMT is already past"))
        #expect(first.stderr.contains("made your identity") && first.stderr.contains("back it up"))
        let file = try String(contentsOfFile: world.root + "/a.locked", encoding: .utf8)
        #expect(file.contains("A story too long for an argument.") && file.contains("from standard input"))
        let again = try world.chest(["compose", "-o", "a.locked", "--title", "T", "--page", "p"])
        #expect(again.status == 1 && again.stderr.contains("a.locked exists") && !again.stderr.contains("identity"))
        #expect(try world.chest(["compose", "-o", "a.locked", "--force", "--title", "T", "--page", "p"]).status == 0)
        let out = try world.chest(["compose", "-o", "-", "--title", "T", "--page", "p"])
        #expect(out.status == 0 && out.stdout.hasPrefix("{") && out.stderr.count == 33, "\(out.stderr)")
        let missing = try world.chest(["compose", "-o", "b.locked", "--title", "T", "--page", "@nope.txt"])
        #expect(missing.status == 1 && missing.stderr == "chest: nope.txt: no such file\n")
    }

    @Test func importSaysWhatIsWrongWithAFile() throws {
        let world = ChestHarness()
        try world.startDaemon()
        try "hello\n".write(toFile: world.root + "/notes.txt", atomically: true, encoding: .utf8)
        let outcome = try world.chest(["import", "missing.locked", "notes.txt"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("chest: missing.locked: no such file\n"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("chest: notes.txt: not a chest message"), "\(outcome.stderr)")
    }

    @Test func unsaveDeleteAndUndeleteKeepTheMessageAndItsPINCount() throws {
        let world = ChestHarness()
        let id = try importPinnedWithOneWrongTry(world)
        #expect(try world.chest(["save", id]).status == 0)
        let unsaved = try world.chest(["unsave", id])
        #expect(unsaved.stdout == "moved back to the regular chest: \(id) \"Pinned\"\n", "\(unsaved.stderr)")
        #expect(try world.list().count == 1)
        // On a terminal, delete asks first.
        let asked = try shell(world, "printf 'n\\n' | script -qfec 'chest delete \(id.prefix(8))' /dev/null")
        #expect(asked.stdout.contains("delete \(id.prefix(8)) \"Pinned\" (locked)? [y/N]"), "\(asked.stdout)")
        #expect(try world.list().count == 1)
        #expect(try world.chest(["delete", "--yes", id]).stdout == "deleted \(id) \"Pinned\"\n")
        #expect(try world.list().isEmpty)
        #expect(world.names(in: "deleted") == ["\(id).json", "\(id).locked"])
        #expect(try world.chest(["undelete"]).stdout == "undeleted \(id) \"Pinned\"\n")
        #expect(try world.states() == ["Pinned": "locked"])
        #expect(try world.chest(["pin", id, "2222"]).stderr.contains("2 of 5"), "the PIN count came back too")
        let nothing = try world.chest(["undelete"])
        #expect(nothing.status == 1 && nothing.stderr.contains("nothing to undelete"))
    }

    @Test func aMessageDeletedBeforeChestdRestartsCanBeUndeletedAfter() throws {
        let world = ChestHarness()
        let id = try importPinnedWithOneWrongTry(world)
        #expect(try world.chest(["delete", "--yes", id]).status == 0)
        #expect(world.stopDaemon() == 0)
        try world.startDaemon()
        #expect(try world.list().isEmpty)
        #expect(try world.chest(["undelete", String(id.prefix(6))]).stdout == "undeleted \(id) \"Pinned\"\n")
        #expect(try world.states() == ["Pinned": "locked"])
        #expect(try world.chest(["pin", id, "2222"]).stderr.contains("2 of 5"), "the PIN count came back too")
    }

    /// Starts chestd, imports Alice's "Pinned" (one PIN page) and tries one wrong PIN on it; returns its ID.
    func importPinnedWithOneWrongTry(_ world: ChestHarness) throws -> String {
        try world.startDaemon()
        let compose = try shell(
            world, "chest compose --seal-cost interactive -o pin.locked --title Pinned --page p --lock pin=4821",
            user: "alice")
        #expect(compose.status == 0, "\(compose.stderr)")
        #expect(try world.chest(["import", "pin.locked"]).status == 0)
        let id = try #require(world.list().first?["id"]?.string)
        #expect(try world.chest(["pin", id, "1111"]).stderr.contains("1 of 5"))
        return id
    }

    @Test func aPINThatOpensNothingYetSaysWhatThePageStillNeeds() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let compose = try shell(
            world,
            """
            chest compose --seal-cost interactive -o both.locked --title Both --page p --lock pin=4821 --lock time=$(date -d '+1 hour' -Iseconds)
            """, user: "alice")
        #expect(compose.status == 0, "\(compose.stderr)")
        #expect(try world.chest(["import", "both.locked"]).status == 0)
        let id = try #require(world.list().first?["id"]?.string)
        let pin = try world.chest(["pin", id, "4821"])
        #expect(pin.stdout == "PIN accepted for page 1; it still needs its time lock\n", "\(pin.stdout)\(pin.stderr)")
        // An unlock nobody heard of is sent to the next watcher, and not logged a second time.
        try composeAsAlice(world, "soon.locked", seconds: 1)
        #expect(try world.chest(["import", "soon.locked"]).status == 0)
        try world.waitUntil("Soon opens", timeout: 10) { try world.states()["Soon"] == "open" }
        let late = try world.chest(["watch", "--count", "1", "--events", "unlocked", "--timeout", "10"])
        #expect(late.stdout.contains("\"Soon\" page 1 is open"), "\(late.stdout)")
        #expect(world.daemonLog.components(separatedBy: "\"Soon\" page 1").count == 2, "\(world.daemonLog)")
    }

    @Test func chestWalkSaysOneLineForAMissingFile() throws {
        let outcome = try Subprocess.run(
            ChestHarness.products + "/chest-walk", ["/nonexistent/walk.txt"], environment: [:])
        #expect(outcome.status == 1 && outcome.stderr == "chest-walk: /nonexistent/walk.txt: no such file\n")
    }
}
