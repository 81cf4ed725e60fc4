import ChestCore
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// The chest directory as a user drives it: the built `chestd` and `chest`, real inotify, real files.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(3)))
struct ChestDirectoryTests {
    @Test func composeEveryLockTypeImportAndListLocked() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let compose = try world.chest(
            [
                "compose", "-o", "all.locked", "--title", "Every lock", "--from", "Alice",
                "--page", "One", "--lock", "location=48.85837,2.29448/30m", "--lock", "time=2030-12-24T18:00:00+01:00",
                "--or", "--lock", "pin=4821", "--lock", "weather=snowy",
                "--page", "Two", "--lock", "temperature=-5..3", "--lock", "altitude=1200..1300",
            ], user: "alice")
        #expect(compose.status == 0, "\(compose.stderr)")
        let id = compose.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(id.count == 32)
        let imported = try world.chest(["import", "all.locked"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == id)
        let list = try world.list()
        #expect(list.count == 1)
        #expect(list.first?["id"]?.string == id)
        #expect(list.first?["state"]?.string == "locked")
        #expect(list.first?["chest"]?.string == "regular")
        #expect(list.first?["pages"]?.int == 2)
        #expect((list.first?["openPages"]?.ints) == [])
        #expect(list.first?["from"]?.string == "Alice")
        #expect(list.first?["title"]?.string == "Every lock")
        let read = try world.chest(["read", String(id.prefix(6))])
        #expect(read.stdout.contains("opens at 2030-12-24 17:00:00"), "\(read.stdout)")
        #expect(read.stdout.contains("no GPS fix yet: gpsd is not connected"))
        #expect(read.stdout.contains("needs the PIN"))
    }

    @Test func aTimeLockOpensOnTimeWithAnUnlockedEvent() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let due = ISO8601.string(Date().addingTimeInterval(3))
        let compose = try world.chest(
            [
                "compose", "--seal-cost", "interactive", "-o", "soon.locked", "--title", "Soon", "--page", "Now!",
                "--lock", "time=\(due)",
            ], user: "alice")
        #expect(compose.status == 0, "\(compose.stderr)")
        let id = compose.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let watchOutput = world.root + "/watch.out"
        let watcher = try world.spawnClient(
            ["watch", "--json", "--count", "2", "--timeout", "15"],
            stdout: watchOutput, stderr: watchOutput)
        #expect(try world.chest(["import", "soon.locked"]).status == 0)
        #expect(watcher.wait() == 0)
        let events = try String(contentsOfFile: watchOutput, encoding: .utf8).split(separator: "\n").map {
            try JSON(String($0))
        }
        #expect(events.count == 2)
        #expect(events.first?["event"]?.string == "ingested")
        let unlocked = try #require(events.last)
        #expect(unlocked["event"]?.string == "unlocked")
        #expect(unlocked["id"]?.string == id)
        #expect(unlocked["page"]?.int == 1)
        #expect(unlocked["set"]?.string == "A")
        #expect(unlocked["title"]?.string == "Soon")
        let at = try #require(ISO8601.parse(unlocked["at"]?.string ?? ""))
        #expect(at.timeIntervalSince(ISO8601.parse(due)!) >= 0)
        #expect(try world.list().first?["state"]?.string == "open")
    }

    @Test func aDuplicateImportIsRefused() throws {
        let world = ChestHarness()
        try world.startDaemon()
        _ = try world.chest(
            [
                "compose", "--seal-cost", "interactive", "-o", "a.locked", "--title", "A", "--page", "x", "--lock",
                "pin=1234",
            ], user: "alice")
        #expect(try world.chest(["import", "a.locked"]).status == 0)
        let again = try world.chest(["import", "a.locked"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("already in the regular chest"), "\(again.stderr)")
        // The same file dropped into the inbox is set aside with that reason, never deleted.
        try FileManager.default.copyItem(atPath: world.root + "/a.locked", toPath: world.chest + "/copy.locked")
        try world.waitUntil("the copy is rejected", timeout: 10) { world.names(in: "rejected").contains("copy.locked") }
        let reason = try String(contentsOfFile: world.chest + "/rejected/copy.locked.reason", encoding: .utf8)
        #expect(reason.contains("already in the regular chest"))
        #expect(try world.list().count == 1)
    }

    @Test func badFilesAreRejectedWithReasonsWhileChestdKeepsRunning() throws {
        let world = ChestHarness()
        try world.startDaemon()
        _ = try world.chest(
            [
                "compose", "--seal-cost", "interactive", "-o", "good.locked", "--title", "Good", "--page", "x",
                "--lock", "pin=1234",
            ], user: "alice")
        let good = try Data(contentsOf: URL(fileURLWithPath: world.root + "/good.locked"))
        try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: world.chest + "/truncated.locked"))
        try Data(repeating: 0x20, count: 14_000_000).write(to: URL(fileURLWithPath: world.chest + "/huge.locked"))
        try Data([0x7b, 0xff, 0xfe, 0x7d]).write(to: URL(fileURLWithPath: world.chest + "/latin1.locked"))
        try FileManager.default.createSymbolicLink(
            atPath: world.chest + "/link.locked", withDestinationPath: world.root + "/good.locked")
        #expect(mkfifo(world.chest + "/pipe.locked", 0o600) == 0)
        let expected = [
            "truncated.locked": "not a complete JSON message", "huge.locked": "over the 13631488-byte limit",
            "latin1.locked": "not UTF-8", "link.locked": "symbolic link", "pipe.locked": "FIFO",
        ]
        try world.waitUntil("all five are set aside", timeout: 15) {
            expected.keys.allSatisfy { world.names(in: "rejected").contains($0 + ".reason") }
        }
        for (name, words) in expected {
            let reason = try String(contentsOfFile: world.chest + "/rejected/\(name).reason", encoding: .utf8)
            #expect(reason.contains(words), "\(name): \(reason)")
        }
        // Set aside, not deleted: the symlink is still a symlink, its target untouched.
        #expect(
            (try? FileManager.default.destinationOfSymbolicLink(atPath: world.chest + "/rejected/link.locked")) != nil)
        #expect(FileManager.default.fileExists(atPath: world.root + "/good.locked"))
        #expect(world.daemonIsRunning)
        #expect(try world.chest(["import", "good.locked"]).status == 0)
        #expect(try world.list().count == 1)
    }

    @Test func fiveHundredFilesCopiedAtOnceAreAllIngested() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let ids = try MessageFactory(configDirectory: world.root + "/config-alice").writeMany(
            500, into: world.root + "/batch")
        let copy = try Subprocess.run(
            "/bin/sh", ["-c", "cp \(world.root)/batch/*.locked \(world.chest)/"], environment: [:])
        #expect(copy.status == 0)
        try world.waitUntil("500 messages are in the chest", timeout: 60) { world.names(in: "messages").count == 500 }
        let listed = try world.list().compactMap { $0["id"]?.string }
        #expect(Set(listed) == Set(ids))
        #expect(listed.count == 500)
        #expect(world.names(in: "").filter { $0.hasSuffix(".locked") }.isEmpty)
        #expect(world.names(in: "rejected").isEmpty)
    }

    @Test func killNineMidIngestLosesAndDuplicatesNothing() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let ids = try MessageFactory(configDirectory: world.root + "/config-alice").writeMany(
            2000, into: world.root + "/batch")
        // A first burst shows ingest running; the kill lands as the second burst arrives, so the restart has work
        // left however fast a burst is ingested.
        func copy(_ files: String) throws -> TestProcess {
            try TestProcess(
                "/bin/sh", ["-c", "ls \(world.root)/batch/*.locked | \(files) | xargs cp -t \(world.chest)/"],
                wholeEnvironment: ["PATH": "/usr/bin:/bin"], stdout: "/dev/null", stderr: "/dev/null")
        }
        try copy("head -n 1000").wait()
        try world.waitUntil("ingest has begun", timeout: 30) { !world.names(in: "messages").isEmpty }
        let copier = try copy("tail -n +1001")
        try world.waitUntil("the second burst arrives", timeout: 30) {
            ["", "incoming", "messages"].reduce(0) { $0 + world.names(in: $1).count { $0.hasSuffix(".locked") } } > 1000
        }
        world.stopDaemon(SIGKILL)
        let storedAtKill = world.names(in: "messages").count
        copier.wait()
        try world.startDaemon()
        try world.waitUntil("every message is in", timeout: 90) {
            world.names(in: "messages").count == ids.count && world.names(in: "incoming").isEmpty
        }
        let listed = try world.list().compactMap { $0["id"]?.string }
        #expect(listed.count == ids.count)
        #expect(Set(listed) == Set(ids))
        #expect(world.names(in: "rejected").isEmpty, "\(world.names(in: "rejected").prefix(4))")
        // The kill landed mid-ingest (the restart had work left), or the test proved nothing.
        #expect(storedAtKill < ids.count)
    }

    @Test func editorAndSyncTemporaryFilesAreIgnored() throws {
        let world = ChestHarness()
        try world.startDaemon()
        for name in [".#draft.locked", ".draft.locked.swp", "draft.locked~", ".syncthing.x.locked.tmp", "notes.txt"] {
            try Data("junk".utf8).write(to: URL(fileURLWithPath: world.chest + "/" + name))
        }
        _ = try world.chest(
            [
                "compose", "--seal-cost", "interactive", "-o", "real.locked", "--title", "Real", "--page", "x",
                "--lock", "pin=1234",
            ], user: "alice")
        try FileManager.default.moveItem(atPath: world.root + "/real.locked", toPath: world.chest + "/real.locked")
        try world.waitUntil("the real one is in", timeout: 10) { world.names(in: "messages").count == 1 }
        #expect(world.names(in: "rejected").isEmpty)
        #expect(world.names(in: "").contains("draft.locked~"))
    }

    @Test func theChestDirectoryDeletedUnderChestdIsRecreatedWithEveryMessage() throws {
        let world = ChestHarness()
        try world.startDaemon()
        _ = try world.chest(
            [
                "compose", "--seal-cost", "interactive", "-o", "a.locked", "--title", "Keep me", "--page", "x",
                "--lock", "pin=1234",
            ], user: "alice")
        #expect(try world.chest(["import", "a.locked"]).status == 0)
        // chestd may start restoring the tree while the removal still walks it, which then fails on what came back:
        // remove until one pass succeeds, as a user would run rm -rf again.
        try world.waitUntil("the chest is removed", timeout: 30) {
            (try? FileManager.default.removeItem(atPath: world.chest)) != nil
        }
        try world.waitUntil("chestd saw it go", timeout: 30) {
            world.daemonLog.contains("the chest directory \(world.chest) was removed or moved; recreating it")
        }
        try world.waitUntil("the chest is restored", timeout: 30) { world.names(in: "messages").count == 1 }
        _ = try world.chest(
            [
                "compose", "--seal-cost", "interactive", "-o", "b.locked", "--title", "New", "--page", "x", "--lock",
                "pin=1234",
            ], user: "alice")
        try FileManager.default.copyItem(atPath: world.root + "/b.locked", toPath: world.chest + "/b.locked")
        try world.waitUntil("a new drop is seen", timeout: 10) { world.names(in: "messages").count == 2 }
    }

    /// A removal that meets chestd's restore half way (rm -rf again and again while chestd writes the tree back)
    /// still ends with every message back: the watch is set before the restore, and a restore cut short is tried again.
    @Test func aChestRemovedAgainWhileItIsRestoredComesBackWhole() throws {
        let world = ChestHarness()
        try world.startDaemon()
        for name in ["a", "b", "c"] {
            _ = try world.chest(
                [
                    "compose", "--seal-cost", "interactive", "-o", "\(name).locked", "--title", name, "--page", "x",
                    "--lock", "pin=1234",
                ], user: "alice")
            #expect(try world.chest(["import", "\(name).locked"]).status == 0)
        }
        for _ in 0..<8 {
            try world.waitUntil("the chest is removed", timeout: 30) {
                (try? FileManager.default.removeItem(atPath: world.chest)) != nil
            }
        }
        try world.waitUntil("the chest is restored whole", timeout: 60) { world.names(in: "messages").count == 3 }
        let listed = try world.chest(["list", "--json"])
        #expect(listed.status == 0, "\(listed.stdout)\(listed.stderr)\n\(world.daemonLog)")
    }
}
