import ChestCore
import ChestTestSupport
import Foundation
import Testing

/// `chest compose --quest`: the demo quest (demo/quest, docs/QUEST.md) becomes sealed message files.
@Suite(.realProcesses, .tags(.process)) struct QuestComposeTests {
    static let demo = GPSLogs.packageRoot.path + "/demo/quest"

    /// A copy of the demo quest in the harness's directory, so the IDs it records stay there.
    func copyDemo(_ harness: ChestHarness) throws -> String {
        let directory = harness.root + "/quest"
        try FileManager.default.copyItem(atPath: Self.demo, toPath: directory)
        return directory
    }

    func decode(_ path: String) throws -> Message {
        try MessageFile.decode(Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func buildsTheDemoQuestWithItsChains() throws {
        let harness = ChestHarness()
        let quest = try copyDemo(harness)
        // Format 1, whose texts and points this test reads; the default, format 2, is checked below.
        let outcome = try harness.chest([
            "compose", "--seal-cost", "interactive", "--quest", quest + "/hill.quest", "-o", harness.root + "/out",
            "--format", "1",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let walk = try decode(harness.root + "/out/walk.locked")
        let bonus = try decode(harness.root + "/out/bonus.locked")
        #expect(outcome.stdout == "\(walk.id)\n\(bonus.id)\n")
        #expect(walk.title == "The hill walk" && walk.from == "The organiser" && walk.pages.count == 4)
        #expect(walk.pages[1].text.hasPrefix("You found the fountain."))
        #expect(walk.pages[1].setA == [.location(center: Coordinate(latitude: 47.3769, longitude: 8.5417), radius: 30)])
        #expect(walk.pages[1].setB.map(\.kind) == [.pin])
        #expect(walk.pages[2].text == "Halfway up: you are above 430 m.\nThe trees are next.")
        #expect(walk.pages[2].setA.first == .after(PageLink(message: walk.id, page: 2)))
        #expect(bonus.pages[0].setA == [.after(PageLink(message: walk.id, page: 4))])
        #expect(bonus.pages[1].setB.map(\.kind) == [.temperature, .after])

        // Into the same directory: nothing is overwritten without --force.
        let over = try harness.chest([
            "compose", "--seal-cost", "interactive", "--quest", quest + "/hill.quest", "-o", harness.root + "/out",
        ])
        #expect(
            over.status == 1 && over.stderr.contains("walk.locked exists; choose another -o, or overwrite with --force")
        )
        #expect(
            try harness.chest([
                "compose", "--seal-cost", "interactive", "--quest", quest + "/hill.quest", "-o", harness.root + "/out",
                "--force",
            ]).status == 0)

        // Built again: new IDs, unless --keep-ids.
        let again = try harness.chest([
            "compose", "--seal-cost", "interactive", "--quest", quest + "/hill.quest", "-o", harness.root + "/again",
        ])
        #expect(again.status == 0 && again.stdout != outcome.stdout)
        let sealed = try decode(harness.root + "/again/walk.locked")
        #expect(sealed.pages[1].sealed != nil && sealed.pages[1].setA.map(\.kind) == [.location])
        #expect(try decode(harness.root + "/again/bonus.locked").pages[0].setA.map(\.kind) == [.after])
        let kept = try harness.chest([
            "compose", "--seal-cost", "interactive", "--quest", quest + "/hill.quest", "-o", harness.root + "/kept",
            "--keep-ids",
        ])
        #expect(kept.status == 0 && kept.stdout == again.stdout)
        #expect(
            try String(contentsOfFile: quest + "/hill.quest.ids", encoding: .utf8).contains(
                "walk \(try decode(harness.root + "/kept/walk.locked").id)"))
    }

    @Test func aBadGPXNamesItsLineAndAMissingWaypointTheQuestLine() throws {
        let harness = ChestHarness()
        let quest = try copyDemo(harness)
        var gpx = try String(contentsOfFile: quest + "/waypoints.gpx", encoding: .utf8)
        try gpx.replacingOccurrences(of: "<name>Fountain</name>", with: "<name>Well</name>")
            .write(toFile: quest + "/waypoints.gpx", atomically: true, encoding: .utf8)
        var outcome = try harness.chest([
            "compose", "--seal-cost", "interactive", "--quest", quest + "/hill.quest", "-o", harness.root + "/out",
        ])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains(
                #"hill.quest:12: lock: waypoints.gpx#Fountain: no waypoint named "Fountain" in waypoints.gpx (it has "Well", "Hill top")"#
            ),
            "\(outcome.stderr)")
        gpx = gpx.replacingOccurrences(of: #"<wpt lat="47.377854" lon="8.543109">"#, with: #"<wpt lat="47.377854">"#)
        try gpx.write(toFile: quest + "/waypoints.gpx", atomically: true, encoding: .utf8)
        outcome = try harness.chest([
            "compose", "--seal-cost", "interactive", "--quest", quest + "/hill.quest", "-o", harness.root + "/out",
        ])
        #expect(
            outcome.stderr.contains("waypoints.gpx:7: <wpt> needs lat (-90..90) and lon (-180..180)"),
            "\(outcome.stderr)")
        try "<gpx>\n<wpt lat=\"1\" lon=\"2\">\n<name>x</nam></wpt>\n</gpx>\n".write(
            toFile: quest + "/waypoints.gpx", atomically: true, encoding: .utf8)
        outcome = try harness.chest([
            "compose", "--seal-cost", "interactive", "--quest", quest + "/hill.quest", "-o", harness.root + "/out",
        ])
        #expect(outcome.stderr.contains("waypoints.gpx:3: not well-formed XML"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: harness.root + "/out/walk.locked"))
    }

    @Test func aOneMessageQuestWritesOneFileAndSeveralWantADirectory() throws {
        let harness = ChestHarness()
        try "message: m\ntitle: T\npage: hello\n".write(
            toFile: harness.root + "/one.quest", atomically: true, encoding: .utf8)
        #expect(
            try harness.chest([
                "compose", "--seal-cost", "interactive", "--quest", harness.root + "/one.quest", "-o",
                harness.root + "/m.locked", "--format", "1",
            ]).status == 0)
        #expect(try decode(harness.root + "/m.locked").pages.map(\.text) == ["hello"])
        let quest = try copyDemo(harness)
        let outcome = try harness.chest([
            "compose", "--seal-cost", "interactive", "--quest", quest + "/hill.quest", "-o", harness.root + "/x.locked",
        ])
        #expect(outcome.status == 1 && outcome.stderr.contains("the quest has 2 messages; give -o a directory"))
    }

    /// A quest's `search-area:` is what its files say of their places, and the places laid in it share one grid, so a
    /// reader derives a cell's key once for all of them (docs/FORMAT.md "Format 3"); a bad one names its line.
    @Test func aSearchAreaIsAllTheFilesSayAndItsPlacesShareAGrid() throws {
        let harness = ChestHarness()
        try """
        search-area: 38.712,-9.134/2km
        message: se
        title: Sé
        page: the cathedral
          lock: location=38.7098,-9.1330/30m
        message: castelo
        title: Castelo
        page: the castle
          lock: location=38.7139,-9.1334/30m
        """.write(toFile: harness.root + "/lisbon.quest", atomically: true, encoding: .utf8)
        let built = try harness.chest([
            "compose", "--seal-cost", "interactive", "--quest", harness.root + "/lisbon.quest", "-o",
            harness.root + "/out",
        ])
        #expect(built.status == 0, "\(built.stderr)")
        var grids: [JSON] = []
        var salts: [String] = []
        for name in ["se", "castelo"] {
            let text = try String(contentsOfFile: harness.root + "/out/\(name).locked", encoding: .utf8)
            #expect(!text.contains("38.7098") && !text.contains("38.7139"), "the place is in \(name).locked")
            let json = try JSON(text)
            let page = try #require(json["pages"]?[0])
            let cell = try #require(page["a"]?[0]?["cell"])
            try #require(cell.object != nil)
            #expect((cell["area"])?["radius"]?.double == 2000)
            grids.append(cell)
            salts.append(try #require(page["keyA"]?["salt"]?.string))
        }
        #expect(grids[0]["offsetX"]?.double == grids[1]["offsetX"]?.double && salts[0] == salts[1])
        try "search-area: 38.7,-9.1/9000km\nmessage: m\ntitle: T\npage: p\n".write(
            toFile: harness.root + "/bad.quest", atomically: true, encoding: .utf8)
        let bad = try harness.chest(["compose", "--quest", harness.root + "/bad.quest", "-o", harness.root + "/bad"])
        #expect(
            bad.status != 0 && bad.stderr.contains("1: search-area: the radius must be 0.1 to 500 km"), "\(bad.stderr)")
    }

    @Test func aMissingPageFileIsSaidInOneSentence() throws {
        let harness = ChestHarness()
        try "message: m\ntitle: T\npage: @story.txt\n".write(
            toFile: harness.root + "/story.quest", atomically: true, encoding: .utf8)
        let outcome = try harness.chest([
            "compose", "--quest", harness.root + "/story.quest", "-o", harness.root + "/out",
        ])
        #expect(outcome.status != 0)
        #expect(
            outcome.stderr
                == "chest: \(harness.root)/story.quest:3: page: cannot read story.txt: there is no such file next to the quest (\(harness.root)/story.txt); check the name after page: @\n",
            "\(outcome.stderr)")
    }

    /// Issue 25: every mistake of a quest in one run, each a line with the file, its line and field, and what to do;
    /// nothing is written.
    @Test func aQuestWithSeveralMistakesReportsThemAllInOneRun() throws {
        let harness = ChestHarness()
        let quest = try copyDemo(harness)
        try """
        message: walk
        title: A walk
        page: @missing.txt
        page: Second
          lock: location=waypoints.gpx#Nowhere/30m
          lock: pin=12
          or
          lock: weather=foggy
        colour: red
        message: walk
        page: No title above
          lock: after=later#1
        """.write(toFile: quest + "/bad.quest", atomically: true, encoding: .utf8)
        let outcome = try harness.chest([
            "compose", "--seal-cost", "interactive", "--quest", quest + "/bad.quest", "-o", harness.root + "/out",
        ])
        #expect(outcome.status == 1)
        let lines = outcome.stderr.split(separator: "\n").map(String.init)
        let file = quest + "/bad.quest"
        let expected = [
            "\(file):3: page: cannot read missing.txt: there is no such file next to the quest",
            "\(file):5: lock: waypoints.gpx#Nowhere: no waypoint named \"Nowhere\" in waypoints.gpx",
            "\(file):6: lock: pin=12: a PIN is 4 to 12 digits",
            "\(file):8: lock: weather=foggy: unknown weather; use clear, cloudy, rainy, snowy or thundery",
            "\(file):9: colour: unknown field",
            "\(file):10: message: a message named \"walk\" already starts on line 1",
            "\(file):10: title: message walk has no title:; add a title: line",
            "\(file):12: lock: no message named later in this quest",
        ]
        #expect(lines.count == expected.count, "\(outcome.stderr)")
        for (line, prefix) in zip(lines, expected) {
            #expect(line.hasPrefix("chest: " + prefix), "\(line)")
        }
        #expect(!FileManager.default.fileExists(atPath: harness.root + "/out"))
    }

    /// Issue 24: `compose --quest … --hunt FILE` records each message's page keys in the organiser's hunt file, and
    /// never in a join file, so the board can check the proofs of opening.
    @Test func aQuestComposedForAHuntRecordsEveryPageKeyInTheOrganisersFile() throws {
        let harness = ChestHarness()
        let hunt = harness.root + "/q.hunt"
        #expect(
            try harness.chest(["hunt", "create", "Q", "--broker", "mqtt://127.0.0.1:1883", "-o", hunt]).status == 0)
        #expect(
            try harness.chest(["hunt", "team", "add", "red", "--hunt", hunt, "-o", harness.root + "/red.hunt"]).status
                == 0)
        let quest = try copyDemo(harness)
        let made = try harness.chest([
            "compose", "--seal-cost", "interactive", "--quest", quest + "/hill.quest", "-o", harness.root + "/out",
            "--hunt", hunt,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let file = try HuntFile.read(path: hunt)
        let messages = try FileManager.default.contentsOfDirectory(atPath: harness.root + "/out").filter {
            $0.hasSuffix(".locked")
        }
        #expect(messages.count == 2)
        for name in messages {
            let message = try decode(harness.root + "/out/" + name)
            let recorded = try #require(file.messages?[message.id], "\(name)")
            #expect(recorded.title == message.title && recorded.pages.count == message.pages.count)
            #expect(zip(recorded.pages, message.pages).allSatisfy { $0.guarded == ($1.protection != .sealed) })
        }
        #expect(!(try String(contentsOfFile: harness.root + "/red.hunt", encoding: .utf8)).contains("messages"))
        let format1 = try harness.chest([
            "compose", "-o", "f1.locked", "--title", "t", "--page", "p", "--hunt", hunt, "--format", "1",
        ])
        #expect(format1.status == 64 && format1.stderr.contains("needs format 2"), "\(format1.stderr)")
    }
}
