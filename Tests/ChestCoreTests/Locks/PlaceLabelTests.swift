import ChestIO
import ChestTestSupport
import Foundation
import Testing

@testable import ChestCore

/// Issue 25: a place whose point is in the clear keeps the organiser's name (docs/FORMAT.md "Place labels").
@Suite struct PlaceLabelTests {
    static func labelled(_ label: String?) -> Message {
        var page = Page(
            text: "At the cathedral", setA: [.location(center: CoreFixture.tower, radius: 40)], setB: [.weather(.clear)]
        )
        page.labels[.a] = label
        return CoreFixture.message(title: "Lisbon", pages: [page])
    }

    /// The file as JSON, with `edit` applied to the first lock of page 1's set A.
    static func file(_ edit: (inout JSON) -> Void, lockOfSet set: String = "a") throws -> Data {
        var object = try JSON(MessageFile.encode(labelled(nil)))
        var pages = try #require(object["pages"]?.array)
        var locks = try #require(pages.first?[set]?.array)
        try #require(locks.first?.object != nil)
        edit(&locks[0])
        pages[0][set] = .array(locks)
        object["pages"] = .array(pages)
        return try object.data
    }

    @Test func aLabelTravelsAndIsSigned() throws {
        let message = Self.labelled("Sé")
        let data = MessageFile.encode(message)
        #expect(String(decoding: data, as: UTF8.self).contains(#""label" : "Sé""#))
        #expect(try MessageFile.decode(data) == message)
        #expect(MessageFile.signedBytes(of: message) != MessageFile.signedBytes(of: Self.labelled("Castelo")))
        // Without a label nothing is written: older files sign and read exactly as before.
        #expect(!String(decoding: MessageFile.encode(Self.labelled(nil)), as: UTF8.self).contains("label"))
        #expect(try MessageFile.decode(MessageFile.encode(Self.labelled(nil))).pages[0].labels.isEmpty)
    }

    @Test func aLabelOnlyNamesAPlaceInTheClearAndIsPlainText() throws {
        func refusal(_ data: Data) -> String {
            do {
                _ = try MessageFile.decode(data)
                return "decoded"
            } catch {
                return error.description
            }
        }
        #expect(
            refusal(try Self.file({ $0["label"] = "Sunny" }, lockOfSet: "b")).contains(
                "only a location whose point is in the clear carries a label"))
        #expect(refusal(try Self.file { $0["label"] = "Sé\u{1b}[2J" }).contains("control character"))
        #expect(
            refusal(try Self.file { $0["label"] = .string(String(repeating: "x", count: 101)) }).contains(
                "101 characters, over 100"))
        #expect(refusal(try Self.file { $0["label"] = " " }).contains("empty"))
    }

    @Test func composeAndQuestsGiveTheLabel() throws {
        let utc = Zone(identifier: "UTC")!
        #expect(
            try LockSpec.parse("location=38.7098,-9.133/40m,visible=Sé", timeZone: utc)
                == .visible(
                    .lock(.location(center: Coordinate(latitude: 38.7098, longitude: -9.133), radius: 40)), label: "Sé")
        )
        #expect(throws: LockSpecError.self) { try LockSpec.parse("location=38.7,-9.1/40m,visible=", timeZone: utc) }
        let parser = QuestParser(timeZone: utc, pageText: { _ in "" }, waypoint: { _, _ in CoreFixture.tower })
        let quest = try parser.parse(
            """
            message: m
            title: T
            page: visible, named by its waypoint
              lock: location=w.gpx#Sé/40m,visible
            page: visible, named by the quest
              lock: location=w.gpx#Sé/40m,visible=The cathedral
            page: sealed: no name in the file
              lock: location=w.gpx#Castelo/40m
            """)
        let specs = quest.messages[0].pages.map(\.setA[0].spec)
        let point = LockSpec.lock(.location(center: CoreFixture.tower, radius: 40))
        #expect(
            specs == [
                .spec(.visible(point, label: "Sé")), .spec(.visible(point, label: "The cathedral")), .spec(point),
            ])
    }
}
