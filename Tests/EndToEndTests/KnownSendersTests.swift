import ChestCore
import ChestIO
import ChestSeal
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// Known senders (docs/SECURITY.md "Known senders"): chest learns a sender's key the first time it meets the
/// name, shows its fingerprint in list and read, and flags in list, read and watch a message whose sender name
/// is known with another key: a copy re-signed by someone else under the organiser's name.
@Suite(.realProcesses, .tags(.process), .serialized, .timeLimit(.minutes(3)))
struct KnownSendersTests {
    /// Writes a message into the chest as a sender's tool would: whole, then moved in.
    static func drop(_ message: Message, _ name: String, into world: ChestHarness) throws {
        try MessageFile.encode(message).write(to: URL(fileURLWithPath: world.root + "/\(name).part"))
        try FileManager.default.moveItem(atPath: world.root + "/\(name).part", toPath: world.chest + "/\(name).locked")
    }

    /// Starts chestd and drops the organiser's genuine "Clue 1" (locked for a day), once it is in: the organiser's
    /// and Mallory's identities, the lock that keeps a page shut, and the genuine message.
    func startWithTheGenuineClue(_ world: ChestHarness) throws
        -> (organiser: MessageFactory, mallory: MessageFactory, later: [Lock], genuine: Message)
    {
        try world.startDaemon()
        let organiser = try MessageFactory(configDirectory: world.root + "/organiser")
        let mallory = try MessageFactory(configDirectory: world.root + "/mallory")
        let later = [Lock.time(Date(timeIntervalSinceNow: 86_400))]
        let genuine = organiser.message(title: "Clue 1", pages: [Page(text: "the oak", setA: later)], from: "Organiser")
        try Self.drop(genuine, "genuine", into: world)
        try world.waitUntil("the genuine message is in", timeout: 20) { try world.list().count == 1 }
        return (organiser, mallory, later, genuine)
    }

    @Test func aReSignedCopyUnderAKnownNameIsFlaggedInListReadAndWatch() throws {
        let world = ChestHarness()
        let (organiser, mallory, later, genuine) = try startWithTheGenuineClue(world)
        func drop(_ message: Message, _ name: String) throws { try Self.drop(message, name, into: world) }
        let organiserPrint = KeyFingerprint.short(organiser.identity.publicKeyBase64)
        let malloryPrint = KeyFingerprint.short(mallory.identity.publicKeyBase64)

        // First met: recorded, its fingerprint shown, no flag.
        let firstList = try world.chest(["list"])
        #expect(
            firstList.stdout.contains(organiserPrint) && !firstList.stdout.contains("not the key"),
            "\(firstList.stdout)")
        let firstRead = try world.chest(["read", genuine.id.rawValue])
        #expect(firstRead.stdout.contains("from Organiser (key \(organiserPrint))"), "\(firstRead.stdout)")
        #expect(try world.chest(["senders"]).stdout.contains(organiserPrint))

        // A copy re-signed by Mallory under the same name, announced while watch runs; its title hides an RLO.
        let out = world.root + "/watch.out"
        let watcher = try world.spawnClient(
            ["watch", "--count", "1", "--events", "ingested", "--timeout", "30"],
            stdout: out, stderr: out + ".err")
        let copy = mallory.message(
            title: "Clue 1\u{202E}kao", pages: [Page(text: "the oak", setA: later)], from: "Organiser")
        try drop(copy, "copy")
        #expect(watcher.wait() == 0)
        let watched = try String(contentsOfFile: out, encoding: .utf8)
        #expect(watched.contains("Organiser \u{2014} not the key you had before (key \(malloryPrint)"), "\(watched)")

        let list = try world.chest(["list"])
        let rows = list.stdout.split(separator: "\n")
        let flagged = try #require(rows.first { $0.hasPrefix(copy.id.short) })
        #expect(
            flagged.contains(malloryPrint + "!") && flagged.contains("(Organiser \u{2014} not the key you had before)"),
            "\(list.stdout)")
        #expect(
            flagged.contains(#"Clue 1\u{202e}kao"#) && !flagged.contains("\u{202E}"), "the RLO is escaped: \(flagged)")
        let plain = try #require(rows.first { $0.hasPrefix(genuine.id.short) })
        #expect(!plain.contains("not the key"), "\(list.stdout)")
        let read = try world.chest(["read", copy.id.rawValue])
        #expect(read.stdout.contains("warning: Organiser \u{2014} not the key you had before"), "\(read.stdout)")
        #expect(read.stdout.contains("chest senders trust \(copy.id.short)"), "\(read.stdout)")

        // Trusting the new key moves the flag to the other message; forgetting the name clears it.
        #expect(try world.chest(["senders", "trust", copy.id.rawValue]).stdout.contains("now key \(malloryPrint)"))
        #expect(!(try world.chest(["read", copy.id.rawValue]).stdout.contains("not the key")))
        #expect(try world.chest(["read", genuine.id.rawValue]).stdout.contains("not the key you had before"))
        #expect(try world.chest(["senders", "forget", "Organiser"]).status == 0)
        #expect(try world.chest(["senders", "forget", "Organiser"]).stderr.contains("no known sender named Organiser"))
        #expect(!(try world.chest(["senders", "list", "--json"]).stdout.contains("Organiser")))
    }

    @Test func aLookalikeNameUnderAnotherKeyIsFlaggedInListReadAndWatch() throws {
        let world = ChestHarness()
        let (_, mallory, later, _) = try startWithTheGenuineClue(world)
        func drop(_ message: Message, _ name: String) throws { try Self.drop(message, name, into: world) }
        #expect(try world.chest(["list"]).status == 0, "the organiser's key is met first")
        // Mallory's copy under "Organіser" (a Ukrainian і) and a no-break space, announced while watch runs.
        let out = world.root + "/watch.out"
        let watcher = try world.spawnClient(
            ["watch", "--count", "1", "--events", "ingested", "--timeout", "30"],
            stdout: out, stderr: out + ".err")
        let jsonOut = world.root + "/watch-json.out"
        let jsonWatcher = try world.spawnClient(
            ["watch", "--json", "--count", "1", "--events", "ingested", "--timeout", "30"],
            stdout: jsonOut, stderr: jsonOut + ".err")
        let copy = mallory.message(
            title: "Clue 1", pages: [Page(text: "the oak", setA: later)], from: "Organ\u{0456}ser\u{00A0}")
        try drop(copy, "copy")
        #expect(watcher.wait() == 0)
        #expect(jsonWatcher.wait() == 0)
        // --json: the same flag as a field naming the sender imitated, in watch, list and read.
        func lookalikeOf(_ json: String) -> String? {
            JSON.object(json)?["lookalikeOf"]?.string
        }
        let watchedJSON = try String(contentsOfFile: jsonOut, encoding: .utf8)
        #expect(lookalikeOf(watchedJSON) == "Organiser", "\(watchedJSON)")
        let listed =
            try JSON(try world.chest(["list", "--json"]).stdout).array ?? []
        #expect(
            listed.first { $0["id"]?.string == copy.id.rawValue }?["lookalikeOf"]?.string == "Organiser",
            "\(listed)")
        #expect(listed.filter { $0["lookalikeOf"] != nil }.count == 1, "the genuine message is no lookalike: \(listed)")
        #expect(lookalikeOf(try world.chest(["read", "--json", copy.id.rawValue]).stdout) == "Organiser")
        let words = "Organ\\u{456}ser\\u{a0} \u{2014} a lookalike of Organiser, a sender you know under another key"
        let watched = try String(contentsOfFile: out, encoding: .utf8)
        #expect(watched.contains("warning: " + words), "\(watched)")
        let list = try world.chest(["list"]).stdout
        let flagged = try #require(list.split(separator: "\n").first { $0.hasPrefix(copy.id.short) })
        #expect(flagged.contains("!") && flagged.contains("(\(words))"), "\(list)")
        #expect(try world.chest(["read", copy.id.rawValue]).stdout.contains("warning: " + words))
        // Never recorded: flagged again the next time.
        let known = try world.chest(["senders", "list", "--json"]).stdout
        #expect(
            known.contains("Organiser") && !known.contains("Organ\u{0456}ser") && !known.contains("Organ\\u0456ser"),
            "\(known)")
        #expect(try world.chest(["list"]).stdout.contains(words))
    }
}
