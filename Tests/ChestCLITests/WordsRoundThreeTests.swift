import ChestArguments
import ChestCore
import ChestSeal
import Foundation
import Testing

@testable import ChestCLI

/// Issue 59.6, the words a new user met: advice that fits the page, a free hint called free, `after=#PAGE` on the
/// command line as in quests.
@Suite struct WordsRoundThreeTests {
    @Test func aGuardedPageWithAVisiblePlaceIsToldToHideItNotToAddOne() {
        let place = Coordinate(latitude: 46.94797, longitude: 7.44745)
        let visible = PageSealer.SetDraft(locks: [.location(center: place, radius: 30)])
        let id = MessageID(bytes: Sealer.randomBytes(16))
        let page = PageSealer.seal(
            text: "t", setA: visible, setB: .init(locks: []), id: id, page: 1,
            cost: SealCost(passes: 1, memory: 8 << 10, lanes: 1), version: 5)
        let sentence = Composer.protectionSentence(page, sets: [visible, .init(locks: [])])
        #expect(sentence.hasPrefix("guarded only") && sentence.contains("drop ,visible"), "\(sentence)")
        #expect(!sentence.contains("or a location lock"), "it has one: \(sentence)")
        let bare = PageSealer.SetDraft(locks: [])
        let open = PageSealer.seal(
            text: "t", setA: bare, setB: .init(locks: []), id: id, page: 2,
            cost: SealCost(passes: 1, memory: 8 << 10, lanes: 1), version: 5)
        #expect(Composer.protectionSentence(open, sets: [bare, bare]).contains("add a PIN or a location lock"))
    }

    @Test func aFreeHintTheBoardGivesEarlierSaysFreeNotItsCost() {
        let id = MessageID(bytes: Sealer.randomBytes(16))
        func way(cost: Int) -> String {
            // As `read --json` has it.
            let json = #"{"number":1,"open":false,"cost":\#(cost),"after":600,"byOrganiser":true}"#
            let hint = try! JSONDecoder().decode(HintReport.self, from: Data(json.utf8))
            return Output.hintWay(hint, page: 1, id: id, timeZone: .utc, now: Date())
        }
        #expect(way(cost: 0).contains("or earlier, free: chest hint"), "\(way(cost: 0))")
        #expect(way(cost: 3).contains("or earlier for its cost: chest hint"), "\(way(cost: 3))")
    }

    func compose(_ arguments: [String]) throws(UsageError) -> ComposeDraft {
        let invocation = try ArgumentParser.parse(
            ["compose", "-o", "x.locked", "--title", "t"] + arguments, root: Chest.self)
        return try ComposeCommand(invocation.path[invocation.path.count - 1], timeZone: .utc).draft
    }

    @Test func afterHashPageOnTheCommandLineNamesAnEarlierPageOfThisMessage() throws {
        let draft = try compose(["--page", "one", "--page", "two", "--lock", "after=#1"])
        let id = try #require(draft.id)
        #expect(draft.pages[1].setA == [.lock(.after(PageLink(message: id, page: 1)))])
        #expect(throws: UsageError.self) { try compose(["--page", "one", "--lock", "after=#1"]) }
        #expect(throws: UsageError.self) { try compose(["--page", "one", "--page", "two", "--lock", "after=#2"]) }
    }
}

extension WordsRoundThreeTests {
    @Test func previewSaysWhenComposeHuntWouldRefuseAPagesPoints() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("words-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let quest = directory + "/points.quest"
        try """
        message: game
        title: Points
        page: Only a time holds it.
          lock: time=2020-01-01T00:00:00Z
          points: 5
        page: A PIN proves it.
          lock: pin=4821
          points: 5
        page: Nothing holds it.
          points: 2

        """.write(toFile: quest, atomically: true, encoding: .utf8)
        let text = PreviewCommand.render(try Rehearsal(paths: [quest]), timeZone: .utc)
        let warnings = text.split(separator: "\n").filter { $0.contains("compose --hunt refuses these points") }
        #expect(warnings.count == 2, "\(text)")
        #expect(warnings.first?.contains("holds no secret") == true && warnings.last?.contains("no receipt") == true)
    }
}
