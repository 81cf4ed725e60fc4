import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// Two people: Alice seals messages, the reader opens them. Separate config directories, separate identities.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(3)))
struct IdentityAndPINTests {
    func composePINMessage(_ world: ChestHarness, title: String = "Treasure") throws -> String {
        let compose = try world.chest(
            [
                "compose", "--seal-cost", "interactive", "-o", "pin.locked", "--title", title, "--from", "Alice",
                "--page", "The key is under the mat.", "--lock", "pin=4821",
                "--page", "Free page",
            ], user: "alice")
        #expect(compose.status == 0, "\(compose.stderr)")
        return compose.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theRightPINOpensAnotherUsersMessage() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let id = try composePINMessage(world)
        #expect(try world.chest(["import", "pin.locked"]).status == 0)
        let right = try world.chest(["pin", String(id.prefix(5)), "4821"])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(right.stdout.contains("PIN accepted: page 1 open"))
        let read = try world.chest(["read", id])
        #expect(read.stdout.contains("The key is under the mat."))
        #expect(try world.list().first?["state"]?.string == "open")
    }

    @Test func fiveWrongPINsThenAWaitThatSurvivesKillNine() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let id = try composePINMessage(world)
        #expect(try world.chest(["import", "pin.locked"]).status == 0)
        for (attempt, pin) in ["0000", "1111", "2222", "3333"].enumerated() {
            let wrong = try world.chest(["pin", id, pin])
            #expect(wrong.status == 1)
            #expect(wrong.stderr.contains("wrong PIN (\(attempt + 1) of 5"), "\(wrong.stderr)")
        }
        let repeated = try world.chest(["pin", id, "3333"])
        #expect(repeated.stderr.contains("already tried"))
        let fifth = try world.chest(["pin", id, "4444"])
        #expect(fifth.stderr.contains("next attempt is allowed at"), "\(fifth.stderr)")
        let refused = try world.chest(["pin", id, "4821"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("too many wrong PINs"), "\(refused.stderr)")
        world.stopDaemon(SIGKILL)
        try world.startDaemon()
        let afterRestart = try world.chest(["pin", id, "4821"])
        #expect(afterRestart.status == 1)
        #expect(afterRestart.stderr.contains("too many wrong PINs"), "\(afterRestart.stderr)")
        #expect(try world.chest(["read", id]).stdout.contains("PIN attempts refused until"))
    }

    @Test func theSendersOwnCopyNeverOpens() throws {
        let world = ChestHarness()
        world.extraEnvironment = [:]
        // The daemon runs as "reader"; this message is sealed by the reader's own identity.
        let compose = try world.chest(
            [
                "compose", "--seal-cost", "interactive", "-o", "mine.locked", "--title", "Mine", "--page", "secret",
                "--lock", "time=2020-01-01T00:00:00Z",
            ], user: "reader")
        #expect(compose.status == 0)
        // The same lock from someone else, which opens: once it has, the reader's own copy has been weighed too.
        let theirs = try world.chest(
            [
                "compose", "-o", "theirs.locked", "--title", "Theirs", "--page", "hello",
                "--lock", "time=2020-01-01T00:00:00Z",
            ], user: "alice")
        #expect(theirs.status == 0)
        try world.startDaemon()
        #expect(try world.chest(["import", "mine.locked"]).status == 0)
        #expect(try world.chest(["import", "theirs.locked"]).status == 0)
        try world.waitUntil("theirs opens", timeout: 10) { try world.states()["Theirs"] == "open" }
        let list = try world.list().filter { $0["title"]?.string == "Mine" }
        #expect(list.first?["state"]?.string == "locked")
        #expect(list.first?["sentByYou"]?.bool == true)
        let read = try world.chest(["read", compose.stdout.trimmingCharacters(in: .whitespacesAndNewlines)])
        #expect(read.stdout.contains("you sent this message"))
        #expect(!read.stdout.contains("secret"))
        let pin = try world.chest(["pin", compose.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "1234"])
        #expect(pin.stderr.contains("you sent this message"))
    }

    @Test func aTamperedFileIsRefusedAndSetAside() throws {
        let world = ChestHarness()
        try world.startDaemon()
        _ = try world.chest(
            [
                "compose", "--seal-cost", "interactive", "--format", "1", "-o", "t.locked", "--title", "Far away",
                "--page", "x",
                "--lock", "location=48.85837,2.29448/30m",
            ], user: "alice")
        let original = try String(contentsOfFile: world.root + "/t.locked", encoding: .utf8)
        let widened = original.replacingOccurrences(of: "\"radius\" : 30", with: "\"radius\" : 30000")
        #expect(widened != original)
        try widened.write(toFile: world.chest + "/t.locked", atomically: true, encoding: .utf8)
        try world.waitUntil("the tampered file is rejected", timeout: 10) {
            world.names(in: "rejected").contains("t.locked.reason")
        }
        let reason = try String(contentsOfFile: world.chest + "/rejected/t.locked.reason", encoding: .utf8)
        #expect(reason.contains("signature does not match: the file was changed after it was sealed"))
    }

    @Test func theFiftyFirstSaveIsRefusedAndADuplicateOfASavedMessageToo() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let ids = try MessageFactory(configDirectory: world.root + "/config-alice").writeMany(
            51, into: world.root + "/batch")
        _ = try Subprocess.run("/bin/sh", ["-c", "cp \(world.root)/batch/*.locked \(world.chest)/"], environment: [:])
        try world.waitUntil("51 messages are in", timeout: 30) { world.names(in: "messages").count == 51 }
        for id in ids.prefix(50) { #expect(try world.chest(["save", id]).status == 0) }
        let full = try world.chest(["save", ids[50]])
        #expect(full.status == 1)
        #expect(full.stderr.contains("the saved chest is full (50 messages)"), "\(full.stderr)")
        #expect(try world.list(saved: true).count == 50)
        #expect(try world.list().count == 1)
        let again = try world.chest(["import", world.root + "/batch/m0.locked"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("already in the saved chest"), "\(again.stderr)")
        #expect(try world.chest(["delete", ids[0]]).status == 0)
        #expect(try world.list(saved: true).count == 49)
    }
}
