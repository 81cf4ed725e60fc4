import ChestCore
import ChestTestSupport
import Foundation
import Testing

/// The complete game quest that docs/QUEST.md "A complete game" shows (examples/game/bern.quest) builds for a hunt,
/// and the organiser's file keeps what its board needs: each page's points and question, and each hint's key, cost
/// and delay.
@Suite(.realProcesses, .tags(.process))
struct GameQuestExampleTests {
    @Test func theExampleGameQuestBuildsForAHuntWithItsPointsQuestionsAndHints() throws {
        let world = ChestHarness()
        let quest = world.root + "/bern.quest"
        try FileManager.default.copyItem(atPath: GPSLogs.packageRoot.path + "/examples/game/bern.quest", toPath: quest)
        let hunt = world.root + "/bern.hunt"
        let created = try world.chest([
            "hunt", "create", "Bern morning", "--broker", "mqtt://127.0.0.1:1883",
            "--starts", "2027-05-02T09:00:00+02:00", "--ends", "2027-05-02T12:00:00+02:00", "-o", hunt,
        ])
        #expect(created.status == 0, "\(created.stderr)")
        let built = try world.chest([
            "compose", "--quest", quest, "-o", world.root + "/out", "--hunt", hunt, "--seal-cost", "interactive",
        ])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: world.root + "/out").sorted() == [
                "bridge.locked", "clock.locked", "rose.locked",
            ])
        #expect(built.stderr.contains("hint 2 is given by the hunt's board for 2 points"), "\(built.stderr)")

        let file = try HuntFile.read(path: hunt)
        let messages = Dictionary(uniqueKeysWithValues: (file.messages ?? [:]).values.map { ($0.title, $0.pages) })
        let clock = try #require(messages["The clock tower"])
        #expect(clock.map(\.worth) == [0, 5])
        #expect(clock[1].question == "What is the name of Bern's clock tower?")
        #expect(clock[1].hints?.map(\.cost) == [0, 2] && clock[1].hints?.map(\.after) == [900, nil])
        #expect(
            messages["The bear park bridge"]?.first?.worth == 3
                && messages["The bear park bridge"]?.first?.hints?.first?.cost == 1)
        #expect(messages["The rose garden"]?.first?.worth == 10)
        // The bridge waits for page 2 of the clock tower: the board counts the bridge's delayed hints from the moment it
        // credited that page (docs/HUNTS.md "Hints: the board's side").
        let clockID = try #require(file.messages?.first { $0.value.title == "The clock tower" }?.key)
        let waits = try #require(messages["The bear park bridge"]?.first?.waitsFor)
        #expect(!waits.isEmpty && waits.allSatisfy { $0 == [PageLink(message: clockID, page: 2)] }, "\(waits)")
        #expect(clock[0].waitsFor == nil)
        #expect(file.schedule.starts == Date(timeIntervalSince1970: 1_809_241_200))
    }
}
