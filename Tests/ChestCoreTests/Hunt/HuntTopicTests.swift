import Testing

@testable import ChestCore

/// Topics are built as docs/HUNTS.md lays them out, and parsing trusts no level.
@Suite struct HuntTopicTests {
    let hunt = HuntFixture.huntID

    @Test func builtTopicsParseBack() {
        #expect(HuntTopic.receipt(hunt: hunt, team: "red", id: 42) == "chest/\(hunt)/red/receipt/42")
        #expect(HuntTopic.status(hunt: hunt, team: "red") == "chest/\(hunt)/red/status")
        #expect(HuntTopic.release(hunt: hunt, name: "finale") == "chest/\(hunt)/release/finale")
        #expect(HuntTopic.ownTracksEvent(team: "red", device: "chest") == "owntracks/red/chest/event")
        #expect(HuntTopic.all(hunt: hunt) == "chest/\(hunt)/#")
        #expect(HuntTopic.releases(hunt: hunt) == "chest/\(hunt)/release/+")
        #expect(
            HuntTopic.parse(HuntTopic.receipt(hunt: hunt, team: "red", id: 42), hunt: hunt)
                == .receipt(team: "red", id: 42))
        #expect(
            HuntTopic.parse(HuntTopic.status(hunt: hunt, team: "Team_2-b"), hunt: hunt) == .status(team: "Team_2-b"))
        #expect(HuntTopic.parse(HuntTopic.release(hunt: hunt, name: "finale"), hunt: hunt) == .release(name: "finale"))
    }

    @Test(arguments: [
        "chest/HUNT/red/receipt/extra", "chest/HUNT/red", "chest/HUNT//receipt", "chest/HUNT/red/unlock",
        "chest/HUNT/+/receipt", "chest/HUNT/#/status", "chest/HUNT/re\u{0}d/receipt", "chest/HUNT/rød/receipt",
        "chest/HUNT/release/", "chest/HUNT/release/a+b", "chest/HUNT/organiser/status", "chest/HUNT/release/receipt/x",
        "chest/OTHER/red/receipt", "owntracks/red/chest/event", "/chest/HUNT/red/receipt", "chest/HUNT/red/receipt/",
        "chest/HUNT/0123456789012345678901234567890123/receipt", "chest/HUNT/red  team/status",
        "chest/HUNT/red/receipt",
        "chest/HUNT/red/receipt/007", "chest/HUNT/red/receipt/-1", "chest/HUNT/red/receipt/99999999999999999999",
    ])
    func hostileTopicsDoNotParse(pattern: String) {
        let topic = pattern.replacingOccurrences(of: "HUNT", with: hunt.rawValue)
            .replacingOccurrences(of: "OTHER", with: HuntFixture.otherHuntID.rawValue)
        #expect(HuntTopic.parse(topic, hunt: hunt) == nil, "\(topic)")
    }

    @Test func aTeamCalledReleaseCannotExist() {
        // "chest/<hunt>/release/status" is the release named "status", never team release's status.
        #expect(HuntTopic.parse("chest/\(hunt)/release/status", hunt: hunt) == .release(name: "status"))
        #expect(!HuntTeam.isValidName("release"))
        #expect(!HuntTeam.isValidName("organiser"))
        #expect(HuntTeam.isValidName(String(repeating: "a", count: 32)))
        #expect(!HuntTeam.isValidName(String(repeating: "a", count: 33)))
        #expect(!HuntTeam.isValidName(""))
    }
}
