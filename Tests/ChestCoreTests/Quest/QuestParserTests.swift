import ChestIO
import Foundation
import Testing

@testable import ChestCore

/// The quest format of docs/QUEST.md, read without any file: page files and waypoints come from the closures.
@Suite struct QuestParserTests {
    static let oak = Coordinate(latitude: 48.1, longitude: 11.5)

    func parse(_ text: String) throws(QuestErrors) -> Quest {
        try QuestParser(
            timeZone: Zone(identifier: "UTC")!,
            pageText: { file in
                guard file == "page.txt" else { throw CocoaError(.fileNoSuchFile) }
                return "from a file"
            },
            waypoint: { file, name in
                guard file == "w.gpx", name == "Old oak" else {
                    throw QuestError(line: 0, field: "x", "no waypoint \(name)")
                }
                return Self.oak
            }
        ).parse(text)
    }

    func error(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    static let everything = """
        # every feature
        from: Alice
        message: first
        title: The first
        page: One
        | and a second line
          lock: location=w.gpx#Old oak/30m
          lock: time=2026-12-01T09:00
          or
          lock: pin=4821
          lock: weather=snowy
        page: @page.txt
          lock: after=#1
          lock: temperature=-5..3
          or
          lock: altitude=here±20
          lock: location=here/1km
        message: second
        title: The second
        from: Bob
        after: first#2
        page: Two
        page: Three
          lock: altitude=100..200
        """

    @Test func readsEveryFeature() throws {
        let quest = try parse(Self.everything)
        #expect(quest.from == "Alice")
        #expect(quest.messages.map(\.name) == ["first", "second"])
        let first = quest.messages[0]
        #expect(first.pages.map(\.text) == ["One\nand a second line", "from a file"])
        #expect(
            first.pages[0].setA.map(\.spec) == [
                .spec(.lock(.location(center: Self.oak, radius: 30))),
                .spec(.lock(.time(ISO8601.parse("2026-12-01T09:00:00Z")!))),
            ])
        #expect(first.pages[0].setB.map(\.spec) == [.spec(.pin(digits: "4821")), .spec(.lock(.weather(.snowy)))])
        #expect(first.pages[1].setA.map(\.line) == [13, 14])
        #expect(
            first.pages[1].setB.map(\.spec) == [.spec(.altitudeHere(margin: 20)), .spec(.locationHere(radius: 1000))])

        let ids = [
            "first": MessageID(bytes: [UInt8](repeating: 1, count: 16)),
            "second": MessageID(bytes: [UInt8](repeating: 2, count: 16)),
        ]
        let drafts = quest.drafts(ids: ids)
        #expect(drafts.map(\.from) == ["Alice", "Bob"])
        #expect(drafts[0].pages[1].setA.first == .lock(.after(PageLink(message: ids["first"]!, page: 1))))
        let waitsForFirst = LockSpec.lock(.after(PageLink(message: ids["first"]!, page: 2)))
        #expect(drafts[1].pages[0].setA == [waitsForFirst])
        #expect(drafts[1].pages[1].setA == [.lock(.altitude(Bounds(min: 100, max: 200))), waitsForFirst])
        #expect(drafts[1].pages[1].setB.isEmpty)
    }

    @Test(arguments: [
        ("page: x", "1: page: comes before any message; write message: NAME first"),
        ("message: a\ntitle: T\npage: x\nlock: pin=12", "4: lock: pin=12: a PIN is 4 to 12 digits, such as pin=4821"),
        (
            "message: a\ntitle: T\npage: x\nlock: pin=1234\nlock: pin=5678",
            "5: lock: set A already has a pin lock (line 4); a set holds at most one of each type, use or for an alternative"
        ),
        ("message: a\ntitle: T\npage: x\nlock: location=w.gpx#Elm/30m", "4: lock: w.gpx#Elm: 0: x: no waypoint Elm"),
        ("message: a\ntitle: T\npage: @nothing.txt", "3: page: cannot read nothing.txt:"),
        ("message: a\ntitle: T\npage: x\nor", "4: or: follows no lock; give set A a lock first"),
        (
            "message: a\ntitle: T\npage: x\nlock: after=#1",
            "4: lock: a page can wait only for an earlier page of its message"
        ),
        (
            "message: a\ntitle: T\npage: x\nlock: after=b#1\nmessage: b\ntitle: U\npage: y",
            "4: lock: message b comes later; a message can wait only for an earlier one"
        ),
        (
            "message: a\ntitle: T\npage: x\nmessage: b\ntitle: U\nafter: a#2\npage: y",
            "6: after: message a has 1 pages, not 2"
        ),
        (
            "message: a\ntitle: T\npage: x\nmessage: b\ntitle: U\nafter: c#1\npage: y",
            "6: after: no message named c in this quest"
        ),
        ("message: a\ntitle: T\npage: x\nlock: after=oak", "4: lock: write after=MESSAGE#PAGE"),
        ("message: a\npage: x", "1: title: message a has no title:"),
        ("message: a\ntitle: T", "1: page: message a has no page:"),
        ("message: a\nmessage: a", "2: message: a message named \"a\" already starts on line 1"),
        ("message: a b", "1: message: a message's name is letters, digits, - and _"),
        ("message: a\ntitle: T\n" + String(repeating: "page: p\n", count: 6), "8: page: a message has at most 5 pages"),
        ("colour: red", "1: colour: unknown field; a line starts with one of from:, message:"),
        ("# nothing", "1: message: the quest has no message"),
    ])
    func errorsNameTheLineAndTheField(_ text: String, _ expected: String) {
        let message = error(text) ?? "no error"
        #expect(message.hasPrefix(expected), "\(message)")
    }

    /// docs/QUEST.md "Order": `order: sequence` makes every page after the first wait for the one before, in each set
    /// and unless the page waits for another itself; `order: any` (the default) adds nothing; a message's own order
    /// beats the quest's, and a message-level `after:` is kept by page 1 only, which the others wait for.
    @Test func orderSequenceChainsThePagesAndAnyLeavesThemFree() throws {
        let quest = try parse(
            """
            order: sequence
            message: walk
            title: Walk
            page: One
              lock: pin=1111
            page: Two
              lock: pin=2222
              or
              lock: weather=snowy
            page: Three
              lock: after=#1
            message: lab
            title: Lab
            order: any
            after: walk#3
            page: A
            page: B
            message: chain
            title: Chain
            after: walk#3
            page: X
            page: Y
            """)
        #expect(quest.order == .sequence && quest.messages.map(\.order) == [nil, .any, nil])
        let ids = [
            "walk": MessageID(bytes: [UInt8](repeating: 1, count: 16)),
            "lab": MessageID(bytes: [UInt8](repeating: 2, count: 16)),
            "chain": MessageID(bytes: [UInt8](repeating: 3, count: 16)),
        ]
        let drafts = quest.drafts(ids: ids)
        #expect(drafts.map(\.order) == [.sequence, .any, .sequence] && drafts.allSatisfy(\.orderStated))
        func after(_ message: String, _ page: Int) -> LockSpec {
            .lock(.after(PageLink(message: ids[message]!, page: page)))
        }
        #expect(drafts[0].pages[0].setA == [.pin(digits: "1111")])
        #expect(drafts[0].pages[1].setA == [.pin(digits: "2222"), after("walk", 1)])
        #expect(drafts[0].pages[1].setB == [.lock(.weather(.snowy)), after("walk", 1)])
        #expect(drafts[0].pages[2].setA == [after("walk", 1)])
        #expect(drafts[1].pages.map(\.setA) == [[after("walk", 3)], [after("walk", 3)]])
        #expect(drafts[2].pages.map(\.setA) == [[after("walk", 3)], [after("chain", 1)]])
        let unordered = try parse("message: a\ntitle: T\npage: x\npage: y")
        let plain = unordered.drafts(ids: ["a": ids["walk"]!])
        #expect(plain[0].order == .any && !plain[0].orderStated && plain[0].pages[1].setA.isEmpty)
        #expect(
            error("order: random\nmessage: a\ntitle: T\npage: x")?.hasPrefix(
                "1: order: write order: any (pages open as they are reached) or order: sequence") == true)
        #expect(
            error("message: a\ntitle: T\norder: any\norder: sequence\npage: x")?.hasPrefix(
                "4: order: the message already has its order") == true)
    }

    /// docs/QUEST.md "Names on the way back": `waypoint: NAME (TYPE)` keeps what a page's place is called where it came
    /// from, for export; once a page, with a name.
    @Test func aPagesWaypointKeepsItsSourceNameAndType() throws {
        let quest = try parse(
            "message: a\ntitle: T\npage: x\n  waypoint: FN3A5N1 (Waypoint|Final Location)\npage: y\n  waypoint: Old mill (east)"
        )
        #expect(
            quest.messages[0].pages.map(\.waypoint) == [
                QuestWaypoint(name: "FN3A5N1", type: "Waypoint|Final Location"), QuestWaypoint(name: "Old mill (east)"),
            ])
        let id = MessageID(bytes: [UInt8](repeating: 4, count: 16))
        #expect(quest.drafts(ids: ["a": id])[0].pages[0].waypoint?.name == "FN3A5N1")
        #expect(
            error("message: a\ntitle: T\npage: x\nwaypoint:")?.hasPrefix("4: waypoint: write waypoint: NAME") == true)
        #expect(
            error("message: a\ntitle: T\npage: x\nwaypoint: A\nwaypoint: B")?.hasPrefix(
                "5: waypoint: the page already has its waypoint") == true)
        #expect(error("message: a\ntitle: T\nwaypoint: A")?.hasPrefix("3: waypoint: comes before any page") == true)
    }

    /// Issue 25: a run reports every mistake, in the order of the file, not only the first; a refused lock does not
    /// make its `or` a second mistake.
    @Test func reportsEveryMistakeOfAQuestAtOnce() {
        let text = """
            message: a
            page: x
              lock: pin=12
              or
              lock: weather=foggy
            page: y
              lock: location=w.gpx#Elm/30m
            bogus: 1
            """
        do {
            _ = try parse(text)
            Issue.record("no error")
        } catch {
            #expect(
                error.errors.map { "\($0.line) \($0.field)" } == ["3 lock", "5 lock", "7 lock", "8 bogus", "1 title"])
            #expect(!error.truncated)
        }
    }

    @Test func stopsAfterTwentyMistakesAndSaysSo() {
        let text = "message: a\ntitle: T\npage: x\n" + String(repeating: "  lock: pin=1\n", count: 30)
        do {
            _ = try parse(text)
            Issue.record("no error")
        } catch {
            #expect(error.errors.count == QuestErrors.limit && error.errors.first?.line == 4)
            #expect(error.description.hasSuffix("stopped after 20 mistakes; fix these and run again"))
        }
    }
}
