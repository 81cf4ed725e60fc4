import ChestIO
import Foundation
import Testing

@testable import ChestCore

/// Hints on the wire and in quests (docs/FORMAT.md "Hints", docs/QUEST.md "Hints", docs/HUNTS.md "Hints"): what a file
/// may carry, what it is refused for, quest lines, delays, and the hunt's topics.
@Suite struct HintFormatTests {
    static let id = MessageID("0123456789abcdef0123456789abcdef")!

    static func message(version: Int = 3, hints: [PageHint]) -> Message {
        var page = Page(
            text: "", setA: [],
            sealed: SealedPage(
                ciphertext: [UInt8](repeating: 1, count: 296),
                slots: [.a: .guarded(key: [UInt8](repeating: 2, count: 32))], version: version))
        page.hints = hints
        return Message(
            id: id, title: "T", from: "A", created: Date(timeIntervalSince1970: 1_800_000_000), pages: [page],
            seal: Seal(publicKey: [UInt8](repeating: 7, count: 32), signature: [UInt8](repeating: 9, count: 64)))
    }

    static let ciphertext = [UInt8](repeating: 3, count: 296)

    @Test func hintsRoundTripThroughTheFileAndSignOnlyWhenPresent() throws {
        let hints = [
            PageHint(ciphertext: Self.ciphertext, key: [UInt8](repeating: 4, count: 32), after: 600),
            PageHint(ciphertext: Self.ciphertext, key: nil, cost: 3),
        ]
        let decoded = try MessageFile.decode(MessageFile.encode(Self.message(hints: hints)))
        #expect(decoded.pages[0].hints == hints)
        let bytes = String(decoding: MessageFile.signedBytes(of: Self.message(hints: hints)), as: UTF8.self)
        #expect(bytes.contains("\"hints\":[{\"after\":600,\"ciphertext\":"))
        #expect(
            !String(decoding: MessageFile.signedBytes(of: Self.message(hints: [])), as: UTF8.self).contains("hints"))
    }

    func refusal(_ hints: [PageHint]) -> String? {
        do {
            try MessageFile.validate(Self.message(hints: hints))
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aFileWithBrokenHintsIsRefusedWithItsReason() {
        let key = [UInt8](repeating: 4, count: 32)
        #expect(
            refusal([PageHint(ciphertext: Self.ciphertext, key: nil)])?.contains(
                "a hint without its key is a hunt's, and carries its cost") == true)
        // A hunt's delayed hint keeps its key with the organiser's board, which gives it free after the delay (issue 45).
        #expect(refusal([PageHint(ciphertext: Self.ciphertext, key: nil, after: 60, cost: 1)]) == nil)
        #expect(
            refusal([PageHint(ciphertext: Self.ciphertext, key: nil, after: 60)])?.contains(
                "a hint without its key is a hunt's, and carries its cost") == true)
        #expect(
            refusal([PageHint(ciphertext: Self.ciphertext, key: key, after: 0)])?.contains("outside 1 s to 30 days")
                == true)
        #expect(refusal([PageHint(ciphertext: Self.ciphertext, key: key, cost: -1)])?.contains("outside 0 to") == true)
        #expect(
            refusal([PageHint(ciphertext: [UInt8](repeating: 3, count: 100), key: key)])?.contains(
                "not base64 of a nonce, padded text and a tag") == true)
        #expect(
            refusal(Array(repeating: PageHint(ciphertext: Self.ciphertext, key: key), count: 6))?.contains(
                "1 to 5 hints, this one has 6") == true)
        #expect(refusal([PageHint(ciphertext: Self.ciphertext, key: key)]) == nil)
    }

    @Test func aFormat1FileCannotCarryHints() throws {
        let json =
            #"{"created":"2027-01-15T08:00:00Z","format":"chest-message","from":"A","id":"0123456789abcdef0123456789abcdef","pages":[{"a":[],"b":[],"hints":[{"ciphertext":"x","key":"y"}],"text":"t"}],"publicKey":"BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=","signature":"CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQ==","title":"T","version":1}"#
        #expect(throws: MessageFormatError.wrongVersionField(version: 1, field: "pages[1].hints")) {
            try MessageFile.decode(Data(json.utf8))
        }
    }

    @Test func delaysAndCostsAreReadOrRefusedInWords() throws {
        #expect(try HintDraft.delay("90s").get() == 90)
        #expect(try HintDraft.delay("10m").get() == 600)
        #expect(try HintDraft.delay("1h30m").get() == 5400)
        #expect(try HintDraft.delay("2d").get() == 172_800)
        for bad in ["10", "", "m", "ten minutes", "31d", "0s"] {
            #expect((try? HintDraft.delay(bad).get()) == nil, "\(bad)")
        }
        #expect(try HintDraft.cost("3").get() == 3)
        #expect((try? HintDraft.cost("-1").get()) == nil && (try? HintDraft.cost("two").get()) == nil)
    }

    func parse(_ text: String) throws(QuestErrors) -> Quest {
        try QuestParser(
            timeZone: Zone(identifier: "UTC")!, pageText: { $0 },
            waypoint: { _, _ in Coordinate(latitude: 0, longitude: 0) }
        )
        .parse(text)
    }

    @Test func aQuestsHintLinesBelongToTheirPage() throws {
        let quest = try parse(
            """
            message: bakery
            title: The bakery
            page: The oldest oven.
            lock: pin=4821
            hint: On the square.
            hint-after: 10m
            hint: Ask Marie.
            hint-cost: 3
            page: Second.
            hint: Second page's hint.
            """)
        #expect(
            quest.messages[0].pages[0].hints == [
                HintDraft(text: "On the square.", after: 600), HintDraft(text: "Ask Marie.", cost: 3),
            ])
        #expect(quest.messages[0].pages[1].hints == [HintDraft(text: "Second page's hint.")])
        let drafts = quest.drafts(ids: ["bakery": Self.id])
        #expect(drafts[0].pages[0].hints.count == 2)
        for (text, problem) in [
            ("message: m\ntitle: t\npage: p\nhint-after: 10m", "4: hint-after: follows no hint:"),
            ("message: m\ntitle: t\npage: p\nhint: h\nhint-after: 10", "has no unit"),
            ("message: m\ntitle: t\nhint: h", "comes before any page"),
            ("message: m\ntitle: t\npage: p\nhint: h\nhint-cost: 1\nhint-cost: 2", "already has its hint-cost:"),
        ] {
            do {
                _ = try parse(text)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.description.contains(problem), "\(error.description)")
            }
        }
    }

    @Test func theHuntsHintTopicsParseAndNameTheirSender() {
        let hunt = HuntFixture.huntID
        #expect(
            HuntTopic.parse(HuntTopic.hintRequest(hunt: hunt, team: "red", id: 12), hunt: hunt)
                == .hintRequest(team: "red", id: 12))
        let hintID = HuntTopic.hintID(message: Self.id.rawValue, page: 5, hint: 5)
        #expect(hintID.count <= 32 && HuntTopic.isValidLevel(hintID))
        #expect(
            HuntTopic.parse(HuntTopic.hint(hunt: hunt, team: "red", hintID: hintID), hunt: hunt)
                == .hint(team: "red", hintID: hintID))
        #expect(HuntTopic.hints(hunt: hunt, team: "red") == "chest/\(hunt)/organiser/hint/red/+")
        #expect(HuntTopic.parse("chest/\(hunt)/organiser/hint/red/a+b", hunt: hunt) == nil)
        #expect(HuntTopic.parse("chest/\(hunt)/red/hint/012", hunt: hunt) == nil)
    }

    @Test func aTeamsRequestIsNewOnceAndTheBoardsHintReplacesOnlyWithANewerID() {
        var gate = HuntGate(hunt: HuntFixture.hunt())
        let request = HuntFixture.signed(
            HuntEnvelope(
                hunt: HuntFixture.huntID, sender: "red", id: 4, sent: CoreFixture.t0,
                hintRequest: HuntHintRequest(message: Self.id, page: 1, hint: 1)))
        let topic = HuntTopic.hintRequest(hunt: HuntFixture.huntID, team: "red", id: 4)
        #expect(gate.admit(request, topic: topic, signatureValid: true) == .accepted)
        #expect(gate.admit(request, topic: topic, signatureValid: true) == .refused(.replayed))
        #expect(
            gate.admit(
                request, topic: HuntTopic.hintRequest(hunt: HuntFixture.huntID, team: "blue", id: 4),
                signatureValid: true)
                == .refused(.wrongTopic))
        func given(_ id: UInt64, sealed: UInt8) -> HuntEnvelope {
            HuntFixture.signed(
                HuntEnvelope(
                    hunt: HuntFixture.huntID, id: id, sent: CoreFixture.t0,
                    hint: HuntHint(
                        team: "red", message: Self.id.rawValue, page: 1, hint: 1, cost: 0,
                        sealed: HuntFixture.key(sealed, count: 80))))
        }
        let hintTopic = HuntTopic.hint(
            hunt: HuntFixture.huntID, team: "red", hintID: HuntTopic.hintID(message: Self.id.rawValue, page: 1, hint: 1)
        )
        #expect(gate.admit(given(10, sealed: 1), topic: hintTopic, signatureValid: true) == .accepted)
        #expect(gate.admit(given(10, sealed: 1), topic: hintTopic, signatureValid: true) == .accepted)
        #expect(gate.admit(given(9, sealed: 2), topic: hintTopic, signatureValid: true) == .refused(.replayed))
        #expect(gate.admit(given(11, sealed: 2), topic: hintTopic, signatureValid: true) == .accepted)
        // A team cannot pose as the organiser's hint.
        var posing = given(12, sealed: 3)
        posing.sender = "red"
        #expect(gate.admit(HuntFixture.signed(posing), topic: hintTopic, signatureValid: true) == .refused(.wrongTopic))
    }
}
