import Foundation
import Testing

@testable import ChestCore

/// Team names in the players' language (issue 56, item 4; docs/HUNTS.md "Team names"): letters of any script, digits,
/// spaces, - and _, 1 to 32 code points in NFC; a name whose UTS #39 skeleton is another team's is the name it imitates.
@Suite struct TeamNameRuleTests {
    @Test(arguments: [
        "Möwen", "Die Eulen", "Équipe 3", "東京", "दिल्ली", "Αθηνά", "Москва", "عقاب", "한국 팀", "team_7-b", "Ünal",
        "ไทย", "x", "٣ نجوم", String(repeating: "ß", count: 32), "red", "Team_2-b",
    ])
    func namesInTheirPlayersLanguageAreTeams(name: String) {
        #expect(HuntTeam.isValidName(name), "\(name)")
        #expect(TeamName(name)?.rawValue == name)
        let topic = HuntTopic.receipt(hunt: HuntFixture.huntID, team: name, id: 7)
        #expect(HuntTopic.parse(topic, hunt: HuntFixture.huntID) == .receipt(team: name, id: 7), "\(topic)")
        #expect(
            HuntTopic.parse(HuntTopic.status(hunt: HuntFixture.huntID, team: name), hunt: HuntFixture.huntID)
                == .status(team: name))
    }

    @Test(arguments: [
        "", " Die Eulen", "Die Eulen ", "Die  Eulen", "red/blue", "red+", "#red", "a:b", "Eulen!", "Möwen🐦",
        "te\u{200B}am",
        "te\u{00A0}am", "tab\tteam", "new\nline", "\u{301}accent first", "1\u{301}", "release", "organiser", "a.b",
        String(repeating: "ß", count: 33), "\u{202E}red", "red\u{0}",
    ])
    func otherTextIsNoTeamName(name: String) {
        #expect(!HuntTeam.isValidName(name), "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(TeamName(name) == nil)
        #expect(TeamName(typed: name) == nil)
    }

    /// A name as a terminal may hand it over, decomposed, is the team in NFC; on the broker and in a file only NFC is.
    @Test func aDecomposedNameIsTypedInNFCAndRefusedOnTheWire() throws {
        let decomposed = "E\u{301}quipe 3"
        #expect(Array(decomposed.unicodeScalars).count == 9)
        #expect(!HuntTeam.isValidName(decomposed))
        let typed = try #require(TeamName(typed: decomposed))
        #expect(Array(typed.rawValue.utf8) == Array("\u{C9}quipe 3".utf8))
        #expect(HuntTopic.parse("chest/\(HuntFixture.huntID)/\(decomposed)/status", hunt: HuntFixture.huntID) == nil)
        // 32 code points in NFC, however many a decomposed spelling has.
        let long = String(repeating: "\u{C9}", count: 32)
        #expect(TeamName(typed: long.canonicallyDecomposed)?.rawValue == long)
        #expect(TeamName(typed: long + "e") == nil)
    }

    /// UTS #39: skeleton(X) = NFD(map(NFD(X))), with Unicode's table.
    @Test func theSkeletonIsUnicodes() {
        #expect(Confusables.version == "17.0.0")
        #expect(Confusables.mapping.count == 6565)
        // Cyrillic е (U+0435), а, о, р and Greek Α read as Latin.
        #expect(Confusables.skeleton("R\u{435}d") == Confusables.skeleton("Red"))
        #expect(Confusables.skeleton("\u{440}\u{430}y\u{440}\u{430}l") == Confusables.skeleton("paypal"))
        #expect(Confusables.skeleton("\u{391}thens") == Confusables.skeleton("Athens"))
        #expect(Confusables.skeleton("\u{43E}rganiser") == Confusables.skeleton("organiser"))
        // From confusables.txt: "m" is "rn", "1" and "I" are "l", "0" is "O".
        #expect(Confusables.skeleton("m") == "rn")
        #expect(Confusables.skeleton("I1l") == "lll")
        #expect(Confusables.skeleton("0") == "O")
        // NFD before and after: a precomposed é and a Cyrillic е with a combining acute are one.
        #expect(Confusables.skeleton("caf\u{E9}") == Confusables.skeleton("caf\u{435}\u{301}"))
        #expect(Array(Confusables.skeleton("\u{E9}").unicodeScalars) == ["e", "\u{301}"])
        // Case and different letters stay apart.
        #expect(Confusables.skeleton("red") != Confusables.skeleton("Red"))
        #expect(Confusables.skeleton("Möwen") != Confusables.skeleton("Mowen"))
        #expect(Confusables.skeleton("東京") == "東京")
    }

    @Test func aNameThatReadsAsAnotherNamesTheTeamItImitates() {
        let skeletons = HuntTeam.skeletons(of: ["Red", "Blue", "Möwen", "東京"])
        #expect(HuntTeam.imitated(by: "R\u{435}d", in: skeletons) == "Red")
        #expect(HuntTeam.imitated(by: "B1ue", in: skeletons) == "Blue")
        #expect(HuntTeam.imitated(by: "M\u{43E}\u{308}wen", in: skeletons) == "Möwen")
        #expect(HuntTeam.imitated(by: "\u{43E}rganiser", in: skeletons) == "organiser")
        #expect(HuntTeam.imitated(by: "rele\u{430}se", in: skeletons) == "release")
        for name in ["red", "Green", "Die Eulen", "Équipe 3", "京都", "Red", "Mowen"] {
            #expect(HuntTeam.imitated(by: name, in: skeletons) == nil, "\(name)")
        }
    }

    /// The terminal tables line names up by columns: a wide letter takes two, a combining mark none.
    @Test func namesTakeTheirTerminalColumns() throws {
        #expect("Die Eulen".terminalColumns == 9)
        #expect("東京".terminalColumns == 4)
        #expect("E\u{301}quipe".terminalColumns == 6)
        var hunt = HuntFixture.hunt()
        hunt.teams = try ["東京", "Red", "E\u{301}quipe"].enumerated().map { index, name in
            var team = hunt.teams[0]
            team.name = try #require(TeamName(typed: name))
            team.publicKey = Data(repeating: UInt8(0x10 + index), count: 32).base64EncodedString()
            return team
        }
        let rows = HuntBoard(hunt: hunt).leaderboardText().split(separator: "\n").map(String.init)
        let points = try #require(rows[0].range(of: "POINTS")).lowerBound.utf16Offset(in: rows[0])
        #expect(rows.count == 4)
        for row in rows.dropFirst() {
            // The column of POINTS, in terminal columns, holds the first character of the team's points.
            let name = try #require(row.split(separator: " ").dropFirst().first.map(String.init))
            let before = row.prefix { $0 != "0" }
            #expect(before.description.terminalColumns == points, "\(name): \(rows)")
        }
    }
}
