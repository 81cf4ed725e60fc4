import ChestTestSupport
import Foundation
import Testing

/// `chest delete ID...`: several messages at once, every ID checked before any is deleted.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(2)))
struct DeleteTests {
    @Test func severalIDsAreDeletedAndATypoDeletesNothing() throws {
        let world = ChestHarness()
        try world.startDaemon()
        var ids: [String] = []
        for title in ["One", "Two", "Three"] {
            let made = try world.chest(
                [
                    "compose", "--seal-cost", "interactive", "-o", "\(title).locked", "--title", title,
                    "--page", "p", "--lock", "pin=4821",
                ], user: "alice")
            ids.append(made.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(try world.chest(["import", "\(title).locked"]).status == 0)
        }
        let typo = try world.chest(["delete", "--yes", ids[0], "ffffffff"])
        #expect(typo.status != 0, "\(typo.stdout)")
        #expect(try world.list().count == 3, "a typo deleted something")
        let both = try world.chest(["delete", "--yes", String(ids[0].prefix(8)), ids[2], ids[0]])
        #expect(both.status == 0, "\(both.stderr)")
        #expect(both.stdout == "deleted \(ids[0]) \"One\"\ndeleted \(ids[2]) \"Three\"\n", "\(both.stdout)")
        #expect(try world.states() == ["Two": "locked"])
    }
}
