import ChestCore
import ChestTestSupport
import Foundation
import Testing

/// Issue 25: a quest rebuilt with `--keep-ids` and imported again replaces the reader's older version, keeping the
/// pages whose locks did not change open (docs/QUEST.md "Rebuilding a quest"), by `chest import` and by the inbox.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(2)))
struct ReimportTests {
    static func quest(page1: String, time: String, title: String = "The walk") -> String {
        """
        message: walk
        title: \(title)
        page: \(page1)
        page: The PIN page
          lock: pin=4821
        page: Later
          lock: time=\(time)
        """
    }

    func build(_ harness: ChestHarness, _ text: String, keepIDs: Bool) throws -> String {
        try text.write(toFile: harness.root + "/walk.quest", atomically: true, encoding: .utf8)
        let built = try harness.chest(
            [
                "compose", "--quest", harness.root + "/walk.quest", "-o", harness.root + "/walk.locked",
                "--force", "--format", "1",
            ] + (keepIDs ? ["--keep-ids"] : []), user: "organiser")
        #expect(built.status == 0, "\(built.stderr)")
        return built.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func read(_ harness: ChestHarness, _ id: String) throws -> JSON {
        let outcome = try harness.chest(["read", id, "--json"])
        return JSON.object(outcome.stdout) ?? [:]
    }

    @Test func aRebuiltQuestReplacesTheOlderVersionAndKeepsItsOpenPages() throws {
        let harness = ChestHarness()
        try harness.startDaemon()
        let id = try build(harness, Self.quest(page1: "Welcome.", time: "2030-01-01T00:00:00Z"), keepIDs: false)
        #expect(try harness.chest(["import", harness.root + "/walk.locked"]).status == 0)
        #expect(try harness.chest(["pin", id, "4821"]).status == 0)
        #expect(try harness.list().first?["openPages"]?.ints == [1, 2])

        // A typo fixed on page 1 and page 3's time moved: pages 1 and 2 stay open, page 1 with its new text.
        #expect(
            try build(harness, Self.quest(page1: "Welcome, walker.", time: "2031-01-01T00:00:00Z"), keepIDs: true) == id
        )
        let again = try harness.chest(["import", harness.root + "/walk.locked"])
        #expect(again.status == 0 && again.stdout == id + "\n", "\(again.stderr)")
        #expect(
            again.stderr.contains("replaces the version of") && again.stderr.contains("pages 1, 2 stay open"),
            "\(again.stderr)")
        #expect(try harness.list().first?["openPages"]?.ints == [1, 2])
        let pages = try read(harness, id)["pages"]?.array ?? []
        #expect(pages.first?["text"]?.string == "Welcome, walker.", "\(pages)")

        // The same file again is a duplicate, not a newer version.
        let same = try harness.chest(["import", harness.root + "/walk.locked"])
        #expect(same.status == 1 && same.stderr.contains("is already in the regular chest"), "\(same.stderr)")

        // Dropped into the inbox, a newer version whose PIN page changed replaces it too; page 2 is locked again.
        let changed = Self.quest(
            page1: "Welcome, walker.", time: "2031-01-01T00:00:00Z", title: "The walk, second edition"
        )
        .replacingOccurrences(of: "pin=4821", with: "pin=4821\n  lock: weather=snowy")
        #expect(try build(harness, changed, keepIDs: true) == id)
        try FileManager.default.copyItem(atPath: harness.root + "/walk.locked", toPath: harness.chest + "/walk.locked")
        try harness.waitUntil("the second edition replaced the first", timeout: 20) {
            try harness.list().first?["title"]?.string == "The walk, second edition"
        }
        #expect(try harness.list().map { $0["openPages"]?.ints } == [[1]])
        #expect(harness.names(in: "rejected").isEmpty, "\(harness.layout)")
    }
}
