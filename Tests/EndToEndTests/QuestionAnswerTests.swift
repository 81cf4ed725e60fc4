import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// A page that asks a question and opens to its answer, with the reader's real chestd (docs/FORMAT.md "Answer
/// locks", docs/QUEST.md "Questions and answers").
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(3)))
struct QuestionAnswerTests {
    func composeQuestion(_ world: ChestHarness) throws -> String {
        let compose = try world.chest(
            [
                "compose", "--seal-cost", "interactive", "-o", "bern.locked", "--title", "Bern", "--from", "Alice",
                "--page", "Under the astronomical clock.",
                "--question", "What is Bern's clock tower called?",
                "--lock", "answer=Zytglogge|Zeitglockenturm", "--points", "5",
                "--page", "Free page",
            ], user: "alice")
        #expect(compose.status == 0, "\(compose.stderr)")
        #expect(compose.stderr.contains("sealed by answer: a word from a dictionary"), "\(compose.stderr)")
        return compose.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theQuestionShowsBeforeWrongAnswersAreCountedAndAnotherAlternativeOpensIt() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let id = try composeQuestion(world)
        let words = world.root + "/watch.txt"
        let watcher = try world.spawnClient(
            ["watch", "--utc", "--timeout", "60"], stdout: words, stderr: world.root + "/watch.err")
        defer {
            watcher.terminate()
        }
        #expect(try world.chest(["import", "bern.locked"]).status == 0)
        // watch tells the question under the message that came in.
        try world.waitUntil("watch tells the question", timeout: 30) {
            ((try? String(contentsOfFile: words, encoding: .utf8)) ?? "").contains(
                "page 1 asks: What is Bern's clock tower called?  (chest answer")
        }

        let json = try world.chest(["read", id, "--json"])
        let report = try JSON(json.stdout)
        let pages = try #require(report["pages"]?.array)
        #expect(pages[0]["open"]?.bool == false)
        #expect(pages[0]["question"]?.string == "What is Bern's clock tower called?")
        #expect(pages[0]["points"]?.int == 5)
        #expect(pages[0]["text"] == nil)
        #expect(pages[1]["points"]?.int == 1)
        let lock = try #require(((pages[0]["sets"]?.array)?.first?["locks"]?.array)?.first)
        #expect(lock["type"]?.string == "answer")
        #expect((lock["reason"]?.string)?.contains("chest answer") == true, "\(lock)")
        #expect(try world.chest(["read", id]).stdout.contains("Q: What is Bern's clock tower called?"))

        for (attempt, guess) in ["Big Ben", "Münster", "Zytglogg"].enumerated() {
            let wrong = try world.chest(["answer", id, guess])
            #expect(wrong.status == 1)
            #expect(wrong.stderr.contains("wrong answer (\(attempt + 1) of 5"), "\(wrong.stderr)")
        }
        // The same answer written otherwise is the same answer: tried, so free.
        let repeated = try world.chest(["answer", id, "  big   BEN "])
        #expect(repeated.stderr.contains("already tried"), "\(repeated.stderr)")
        // Answers and PINs share one count.
        let ledger = try String(contentsOfFile: world.chest + "/attempts/\(id).json", encoding: .utf8)
        #expect(ledger.contains("\"wrong\" : 3") || ledger.contains("\"wrong\":3"), "\(ledger)")

        let right = try world.chest(["answer", String(id.prefix(6)), "\u{00A0} zeitGLOCKENturm\u{3000}", "--page", "1"])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(right.stdout.contains("answer accepted: page 1 open"), "\(right.stdout)")
        let read = try world.chest(["read", id])
        #expect(read.stdout.contains("Under the astronomical clock."))
        #expect(read.stdout.contains("worth 5 points"))
        let again = try world.chest(["answer", id, "Zytglogge"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("no answer lock of this message is waiting"), "\(again.stderr)")
    }

    @Test func fiveWrongAnswersMakeTheNextWaitAsPINsDo() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let id = try composeQuestion(world)
        #expect(try world.chest(["import", "bern.locked"]).status == 0)
        for guess in ["one", "two", "three", "four"] { #expect(try world.chest(["answer", id, guess]).status == 1) }
        let fifth = try world.chest(["answer", id, "five"])
        #expect(fifth.stderr.contains("next attempt is allowed at"), "\(fifth.stderr)")
        let refused = try world.chest(["answer", id, "Zytglogge"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("too many wrong answers"), "\(refused.stderr)")
        #expect(try world.chest(["read", id]).stdout.contains("answers refused until"))
    }

    @Test func anAnswerWithASealedPlaceIsKeptUncountedAndPricedAsBoth() throws {
        let world = ChestHarness()
        try world.startDaemon()
        let compose = try world.chest(
            [
                "compose", "--seal-cost", "interactive", "-o", "pair.locked", "--title", "Pair",
                "--search-area", "46.948,7.4474/0.564km", "--page", "At the clock, ask for Kaspar.",
                "--question", "What is Bern's clock tower called?",
                "--lock", "answer=Zytglogge", "--lock", "location=46.94797,7.44745/30m",
            ], user: "alice")
        #expect(compose.status == 0, "\(compose.stderr)")
        #expect(compose.stderr.contains("sealed by location and answer: about"), "\(compose.stderr)")
        #expect(
            compose.stderr.contains("× 100,000 answers like the weakest, a word from a dictionary"), "\(compose.stderr)"
        )
        let id = compose.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try world.chest(["import", "pair.locked"]).status == 0)
        let before = try world.chest(["read", id]).stdout
        #expect(before.contains("give the answer (chest answer): it is tried with each new place"), "\(before)")
        let kept = try world.chest(["answer", id, "zytglogge"])
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(kept.stdout.contains("answer kept: it will be tried at each new place"), "\(kept.stdout)")
        let read = try world.chest(["read", id]).stdout
        #expect(read.contains("answer kept: it will be tried at each new place"), "\(read)")
        let ledger = world.chest + "/attempts/\(id).json"
        let counted = (try? String(contentsOfFile: ledger, encoding: .utf8)) ?? ""
        #expect(!counted.contains("\"wrong\" : 1"), "\(counted)")
    }

    @Test func anOldFormatOrAnAnswerWithAPINInOneSetIsRefusedWithItsReason() throws {
        let world = ChestHarness()
        let format1 = try world.chest(
            [
                "compose", "--format", "1", "-o", "old.locked", "--title", "Old", "--page", "p",
                "--lock", "answer=oak",
            ], user: "alice")
        #expect(format1.status != 0)
        #expect(format1.stderr.contains("needs format 2 or later"), "\(format1.stderr)")
        let both = try world.chest(
            [
                "compose", "-o", "both.locked", "--title", "Both", "--page", "p",
                "--lock", "answer=oak", "--lock", "pin=4821",
            ], user: "alice")
        #expect(both.status != 0)
        #expect(both.stderr.contains("an answer's only other secret may be a sealed place"), "\(both.stderr)")
        let points = try world.chest(
            ["compose", "-o", "p.locked", "--title", "P", "--page", "p", "--points", "1001"], user: "alice")
        #expect(points.status != 0)
        #expect(points.stderr.contains("points are a whole number from 0 to 1000"), "\(points.stderr)")
    }
}

/// A quest with a question, an answer lock and points: built for a hunt, the organiser's file keeps the points and the
/// question for the board; `simulate --answer` rehearses it.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(3)))
struct QuestQuestionTests {
    static let root = GPSLogs.packageRoot.path

    func writeQuest(_ world: ChestHarness) throws -> String {
        let quest = world.root + "/bern.quest"
        try """
        message: bern
        title: Bern
        page: Start here.
          points: 0
        page: Under the astronomical clock.
          question: What is Bern's clock tower called?
          lock: answer=Zytglogge|Zeitglockenturm
          points: 5
        page: The end.
          lock: after=bern#2
          lock: answer=Kaspar
        """.write(toFile: quest, atomically: true, encoding: .utf8)
        return quest
    }

    @Test func aQuestForAHuntRecordsPointsAndQuestionsInTheOrganisersFile() throws {
        let world = ChestHarness()
        let hunt = world.root + "/q.hunt"
        #expect(try world.chest(["hunt", "create", "Q", "--broker", "mqtt://127.0.0.1:1883", "-o", hunt]).status == 0)
        let quest = try writeQuest(world)
        let made = try world.chest([
            "compose", "--seal-cost", "interactive", "--quest", quest, "-o", world.root + "/bern.locked", "--hunt",
            hunt,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let message = try MessageFile.decode(Data(contentsOf: URL(fileURLWithPath: world.root + "/bern.locked")))
        #expect(message.pages.map(\.points) == [0, 5, nil])
        #expect(message.pages.map(\.worth) == [0, 5, 1])
        #expect(message.pages[1].question == "What is Bern's clock tower called?")
        #expect(message.pages[2].setA.contains(.answer))
        let recorded = try #require(try HuntFile.read(path: hunt).messages?[message.id])
        #expect(recorded.pages.map(\.worth) == [0, 5, 1])
        #expect(recorded.pages.map(\.points) == [0, 5, nil])
        #expect(recorded.pages[1].question == "What is Bern's clock tower called?")
        #expect(recorded.pages[0].question == nil)
        // Bad points and questions name their line.
        try "message: m\ntitle: t\npage: p\n  points: lots\n  question:\n".write(
            toFile: quest, atomically: true, encoding: .utf8)
        let bad = try world.chest(["compose", "--quest", quest, "-o", world.root + "/bad.locked"])
        #expect(bad.status != 0)
        #expect(
            bad.stderr.contains("4: points: points are a whole number from 0 to 1000, not \"lots\""), "\(bad.stderr)")
        #expect(bad.stderr.contains("5: question: the question is empty"), "\(bad.stderr)")
    }

    @Test func simulateTakesAnswersAndSaysWhichWereMissing() throws {
        let world = ChestHarness()
        let quest = try writeQuest(world)
        let walk = Self.root + "/demo/walk.txt"
        let none = try world.chest(["simulate", quest, walk])
        #expect(none.status == 1)
        #expect(
            none.stdout.contains(
                "    set A answer: needs the answer to its question; none of its answers was given (simulate --answer PAGE=TEXT)"
            ),
            "\(none.stdout)")
        let wrong = try world.chest(["simulate", quest, walk, "--answer", "2=Big Ben", "--answer", "bern#3=kaspar"])
        #expect(wrong.status == 1)
        #expect(wrong.stdout.contains("1 of 3 pages opened."), "\(wrong.stdout)")
        let right = try world.chest([
            "simulate", quest, walk, "--answer", "2= ZEITGLOCKENTURM", "--answer", "bern#3=kaspar",
        ])
        #expect(right.status == 0, "\(right.stdout)\n\(right.stderr)")
        #expect(right.stdout.contains("bern: answer lock of page 2 set A answered (--answer)"), "\(right.stdout)")
        #expect(right.stdout.contains("3 of 3 pages opened."), "\(right.stdout)")
        let badOption = try world.chest(["simulate", quest, walk, "--answer", "two=x"])
        #expect(badOption.status == 64)
        #expect(badOption.stderr.contains("--answer wants PAGE=TEXT or NAME#PAGE=TEXT"), "\(badOption.stderr)")
    }
}
