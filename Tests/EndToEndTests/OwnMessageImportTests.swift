import ChestTestSupport
import Foundation
import Testing

/// Issue 59, item 2: importing a message you sealed yourself said nothing, and `chest watch` then waited for an
/// opening that never comes. `import` says at once that your own message never opens for you, and why; another
/// sender's message says nothing of the kind.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(2)))
struct OwnMessageImportTests {
    @Test func importSaysYourOwnMessageNeverOpensForYou() throws {
        let world = ChestHarness()
        for (user, file) in [("reader", "mine.locked"), ("alice", "alices.locked")] {
            let made = try world.chest(
                ["compose", "-o", file, "--title", "T", "--page", "p", "--lock", "time=2020-01-01T00:00:00Z"],
                user: user)
            #expect(made.status == 0, "\(made.stderr)")
        }
        try world.startDaemon()
        let mine = try world.chest(["import", world.root + "/mine.locked"])
        #expect(mine.status == 0, "\(mine.stderr)")
        #expect(
            mine.stderr.contains("you sealed this message yourself, and a sender cannot open their own messages"),
            "\(mine.stderr)")
        let alices = try world.chest(["import", world.root + "/alices.locked"])
        #expect(alices.status == 0 && !alices.stderr.contains("sealed this message yourself"), "\(alices.stderr)")
    }
}
