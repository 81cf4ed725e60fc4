import ChestTestSupport
import Foundation
import Testing

@testable import ChestCLI
@testable import ChestCore

/// A lookalike sender is flagged in `list`, `read` (and `watch`, which prints the same warning) and on the board.
@Suite struct LookalikeOutputTests {
    static let organiserKey = Data(repeating: 1, count: 32).base64EncodedString()
    static let malloryKey = Data(repeating: 2, count: 32).base64EncodedString()

    static func note(_ name: String) -> SenderCheck.Note {
        var known = KnownSenders()
        _ = known.meet("Organiser", key: organiserKey, at: Date(timeIntervalSince1970: 1_800_000_000))
        return SenderCheck.Note(
            fingerprint: "ab:cd", verdict: known.meet(name, key: malloryKey, at: Date()), name: name)
    }

    @Test func listAndReadFlagALookalike() {
        let name = "Organ\u{0456}ser\u{00A0}"
        let note = Self.note(name)
        let id = MessageID(bytes: [UInt8](repeating: 7, count: 16))
        let item = ListItem(
            id: id, title: "Clue 1", from: name, chest: .regular, pages: 1, openPages: [], state: .locked,
            sentByYou: false, receivedAt: Date(), senderKey: Self.malloryKey)
        let list = Output.list([item], saved: false, senders: [note])
        #expect(list.contains("ab:cd!"), "\(list)")
        #expect(
            list.contains(
                "(Organ\\u{456}ser\\u{a0} \u{2014} a lookalike of Organiser, a sender you know under another key)"),
            "\(list)")
        let report = ReadReport(
            id: id, title: "Clue 1", from: name, chest: .regular, state: .locked, sentByYou: false, pages: [],
            senderKey: Self.malloryKey)
        let read = Output.read(report, sender: note)
        #expect(read.contains("warning: Organ\\u{456}ser\\u{a0} \u{2014} a lookalike of Organiser"), "\(read)")
        #expect(!read.contains("chest senders trust"), "trusting cannot make a lookalike the known name: \(read)")
    }

    /// `--json` names the known sender a lookalike imitates in `lookalikeOf`, and leaves it out otherwise.
    @Test func theJSONOfListReadAndWatchNamesTheKnownSender() throws {
        let name = "\u{041E}rganiser"
        let note = Self.note(name)
        #expect(note.lookalikeOf == "Organiser")
        let id = MessageID(bytes: [UInt8](repeating: 7, count: 16))
        var item = ListItem(
            id: id, title: "Clue 1", from: name, chest: .regular, pages: 1, openPages: [], state: .locked,
            sentByYou: false, receivedAt: Date(), senderKey: Self.malloryKey)
        #expect(!CLI.jsonText([item]).contains("lookalikeOf"))
        item.lookalikeOf = note.lookalikeOf
        let list = try JSON(CLI.jsonText([item]))
        #expect(list[0]?["lookalikeOf"] == "Organiser", "\(CLI.jsonText([item]))")
        let report = ReadReport(
            id: id, title: "Clue 1", from: name, chest: .regular, state: .locked, sentByYou: false, pages: [],
            senderKey: Self.malloryKey)
        let read = try JSON(CLI.jsonText(Output.ReadJSON(report, lookalikeOf: "Organiser")))
        #expect(read["lookalikeOf"] == "Organiser")
        #expect(!CLI.jsonText(Output.ReadJSON(report)).contains("lookalikeOf"))
        // watch --json passes chestd's line on with the field added.
        let line = Data(
            #"{"at":"2026-11-26T18:00:00Z","event":"ingested","id":"\#(id.rawValue)","title":"Clue \"1\""}"#.utf8)
        let watched = WatchCommand.adding(lookalikeOf: "Org\"aniser", to: line)
        #expect(watched.hasPrefix(String(decoding: line, as: UTF8.self).dropLast()), "\(watched)")
        let object = try JSON(watched)
        #expect(
            object["lookalikeOf"] == "Org\"aniser" && object["title"] == "Clue \"1\"",
            "\(watched)")
    }

    @Test func theBoardFlagsALookalikeTeam() {
        var hunt = HuntFile(
            id: HuntID(String(repeating: "ab", count: 16))!, name: "Old Town",
            broker: BrokerURL("mqtt://127.0.0.1:1883")!,
            organiser: Self.organiserKey)
        // ASCII lookalikes, as a hunt file edited by hand may hold (`hunt team add` refuses them): a digit 1 reads as
        // a small l.
        hunt.teams = ["Red", "Blue", "B1ue"].enumerated().map { index, name in
            HuntTeam(
                name: TeamName(name)!, password: "pw-\(index)-0123456789ab",
                publicKey: Data(repeating: UInt8(0x10 + index), count: 32).base64EncodedString(),
                secretKey: nil)
        }
        let feed = BoardFeed(hunt: hunt, huntPath: "/nonexistent/hunt.json", organiser: nil)
        let lines = BoardScreen(hunt: hunt).render(feed, columns: 400, rows: 40, now: Date())
        let flagged = lines.filter { $0.contains("a lookalike of Blue") }
        #expect(flagged.count == 1 && flagged.first?.contains("B1ue") == true, "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("Red") && $0.contains("lookalike") })
    }

    /// Issue 45, item 8: `chest board --once` (its table, `HuntBoard.leaderboardText`) flags the lookalike as the live
    /// boards do: its differing characters written out, "— a lookalike of Red" on its row, and no other row flagged.
    @Test func theOnceTableFlagsALookalikeTeam() {
        var hunt = HuntFile(
            id: HuntID(String(repeating: "ab", count: 16))!, name: "Old Town",
            broker: BrokerURL("mqtt://127.0.0.1:1883")!,
            organiser: Self.organiserKey)
        // ASCII lookalikes, as a hunt file edited by hand may hold: a digit 0 reads as a capital O, a digit 1 as a
        // small l.
        hunt.teams = ["COOL", "C0OL", "Blue", "B1ue"].enumerated().map { index, name in
            HuntTeam(
                name: TeamName(name)!, password: "pw-\(index)-0123456789ab",
                publicKey: Data(repeating: UInt8(0x10 + index), count: 32).base64EncodedString(),
                secretKey: nil)
        }
        let rows = HuntBoard(hunt: hunt).leaderboardText().split(separator: "\n").map(String.init)
        let flagged = rows.filter { $0.contains("lookalike") }
        #expect(flagged.count == 2, "\(rows)")
        #expect(flagged.contains { $0.contains("C0OL") && $0.hasSuffix("\u{2014} a lookalike of COOL") }, "\(rows)")
        #expect(flagged.contains { $0.contains("B1ue") && $0.hasSuffix("\u{2014} a lookalike of Blue") }, "\(rows)")
    }
}
