import ChestTestSupport
import Foundation
import Testing

/// Issue 59.6: what `compose --quest` says of a page names where the quest writes it: the message of a quest of
/// several, and for a refusal the file and the line too.
@Suite(.realProcesses, .tags(.process)) struct QuestWordsTests {
    @Test func composeNamesTheMessageOfEachPageAndTheLineOfARefusal() throws {
        let world = ChestHarness()
        let quest = world.root + "/two.quest"
        try """
        message: walk
        title: The walk
        page: Start here.
          lock: pin=4821

        message: bonus
        title: A bonus
        page: Worth a lot, held by nothing.
          lock: time=2020-01-01T00:00:00Z
          points: 5

        """.write(toFile: quest, atomically: true, encoding: .utf8)
        let made = try world.chest([
            "compose", "--seal-cost", "interactive", "--quest", quest, "-o", world.root + "/out",
        ])
        #expect(made.status == 0, "\(made)")
        #expect(made.stderr.contains("message walk, page 1: sealed"), "\(made.stderr)")
        #expect(made.stderr.contains("message bonus, page 1: guarded only"), "\(made.stderr)")
        let hunt = world.root + "/h.hunt"
        #expect(
            try world.chest(["hunt", "create", "H", "--broker", "mqtt://127.0.0.1:9", "-o", hunt]).status == 0)
        let refused = try world.chest([
            "compose", "--seal-cost", "interactive", "--quest", quest, "-o", world.root + "/out2", "--hunt", hunt,
        ])
        #expect(refused.status != 0, "\(refused)")
        #expect(
            refused.stderr.contains("\(quest) line 8, message bonus, page 1: page 1 is worth 5 points"),
            "\(refused.stderr)")
    }
}
