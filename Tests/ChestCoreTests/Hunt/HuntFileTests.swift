import ChestTestSupport
import Foundation
import Testing

@testable import ChestCore

/// Hunt files: a round trip keeps everything, join files carry one team, and every invalid field is refused
/// with a sentence naming it.
@Suite struct HuntFileTests {
    @Test func aFileRoundTripsAndIsPrettySortedWithANewline() throws {
        let hunt = HuntFixture.hunt()
        let bytes = hunt.fileBytes
        #expect(try HuntFile.decode(bytes) == hunt)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasSuffix("}\n"))
        #expect(text.contains("\n  \"broker\" : \"mqtts://broker.example:8883\",\n  \"format\" : \"chest-hunt\""))
        #expect(!text.contains("\"team\" :"), "an organiser's file has no team of its own")
        #expect(hunt.broker.host == "broker.example" && hunt.broker.port == 8883 && hunt.broker.tls)
    }

    @Test func aJoinFileHasOnlyItsTeamAndNoReleases() throws {
        let join = try #require(HuntFixture.hunt().joinFile(team: TeamName("blue")!))
        #expect(join.isJoinFile)
        #expect(join.teams == [HuntFixture.team("blue", 0x11)])
        #expect(join.team == TeamName("blue"))
        #expect(join.releases == nil)
        #expect(try HuntFile.decode(join.fileBytes) == join)
        #expect(!HuntFixture.hunt().isJoinFile)
        #expect(HuntFixture.hunt().joinFile(team: TeamName("purple")!) == nil)
        var noSecret = HuntFixture.hunt()
        noSecret.teams[0].secretKey = nil
        #expect(noSecret.joinFile(team: TeamName("red")!) == nil)
    }

    static let invalid: [(String, @Sendable (inout HuntFile) -> Void, String)] = [
        ("format", { $0.format = "chest-quest" }, "not a chest hunt file"),
        ("version", { $0.version = 3 }, "version 3 is not supported"),
        ("schedule in version 1", { $0.starts = Date(timeIntervalSince1970: 1_800_000_000) }, "is version 2, not 1"),
        (
            "ends before starts",
            {
                $0.setSchedule(
                    HuntSchedule(
                        starts: Date(timeIntervalSince1970: 1_800_000_000),
                        ends: Date(timeIntervalSince1970: 1_700_000_000)))
            }, "must end after it starts"
        ),
        ("name empty", { $0.name = "" }, "1 to 80 printable"),
        ("name long", { $0.name = String(repeating: "x", count: 81) }, "1 to 80 printable"),
        ("name control", { $0.name = "Old\u{1B}[2JTown" }, "1 to 80 printable"),
        ("ca file", { $0.caFile = "" }, "CA file"),
        ("organiser", { $0.organiser = "not a key" }, "organiser's key"),
        ("duplicate", { $0.teams[1].name = TeamName("red")! }, "listed twice"),
        ("password", { $0.teams[0].password = "" }, "password"),
        ("public key", { $0.teams[1].publicKey = HuntFixture.key(1, count: 31) }, "team blue's public key"),
        ("secret key", { $0.teams[2].secretKey = HuntFixture.key(1, count: 32) }, "team green's secret key"),
        (
            "secret key of another", { $0.teams[2].secretKey = $0.teams[1].secretKey },
            "does not belong to its public key"
        ),
        (
            "join two teams",
            {
                $0.team = TeamName("red")!
                $0.releases = nil
            }, "exactly its own team"
        ),
        (
            "join no secret",
            {
                $0.teams = [$0.teams[0]]
                $0.teams[0].secretKey = nil
                $0.team = TeamName("red")!
                $0.releases = nil
            },
            "no secret key"
        ),
        (
            "join releases",
            {
                $0.teams = [$0.teams[0]]
                $0.team = TeamName("red")!
            }, "must not carry release keys"
        ),
        (
            "target",
            {
                $0.messages = [
                    MessageID(String(repeating: "ab", count: 16))!: HuntMessage(
                        title: "t",
                        pages: [
                            HuntMessage.PageKey(
                                key: HuntFixture.key(3), guarded: true,
                                targets: [HuntMessage.Target(Coordinate(latitude: 91, longitude: 0), radius: 40)])
                        ])
                ]
            }, "with valid targets"
        ),
    ]

    @Test(arguments: invalid.indices)
    func everyInvalidFieldIsRefusedWithASentence(index: Int) {
        let (label, edit, words) = Self.invalid[index]
        var hunt = HuntFixture.hunt()
        edit(&hunt)
        do {
            _ = try HuntFile.decode(hunt.fileBytes)
            Issue.record("\(label) was accepted")
        } catch {
            #expect(error.description.contains(words), "\(label): \(error.description)")
        }
    }

    /// Fields whose type refuses them as the file is read: a sentence naming the field.
    static let untyped: [(String, String, JSON, String)] = [
        (
            "id short", "id", "0123",
            "not a chest hunt file: \"id\": \"0123\" is not a hunt ID: the hunt's id must be 32 lowercase hex characters"
        ),
        ("id upper", "id", .string(HuntFixture.huntID.rawValue.uppercased()), "32 lowercase hex"),
        (
            "broker scheme", "broker", "http://broker.example",
            "not a chest hunt file: \"broker\": \"http://broker.example\" is not mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"
        ),
        ("broker port", "broker", "mqtt://broker.example:0", "is not mqtt://HOST[:PORT]"),
        (
            "release key", "releases", ["finale": .string(HuntFixture.key(2, count: 16))],
            "not a chest hunt file: \"releases.finale\": the key is not 32 bytes in base64"
        ),
    ]

    /// A release name or message ID that is not one is refused as the file is read, in the sentence the file's checks
    /// said of it when the maps were keyed by text.
    static let badKeys: [(String, String, JSON, String)] = [
        (
            "release name", "releases", ["a b": .string(HuntFixture.releaseKey(2).base64)],
            "the release name \"a b\" is not 1 to 32 letters, digits, - or _"
        ),
        (
            "message ID", "messages",
            [
                "not an id": ["title": "t", "pages": [["key": .string(HuntFixture.key(3)), "guarded": true]]]
            ],
            "the page keys of message not an id are not a message ID and 1 to \(Message.maximumPages) keys of 32 bytes in base64 (with valid targets)"
        ),
    ]

    /// A team's name that is not one is refused as the file is read, in the sentence the file's checks said of it.
    @Test(arguments: ["red/+", "release", "organiser", "", String(repeating: "r", count: 33)])
    func badTeamNamesAreRefusedWithTheSentenceTheyHad(name: String) throws {
        let sentence =
            "the team name \"\(name)\" is not 1 to 32 letters (of any script), digits, spaces, - or _, with no space at "
            + "either end or two together, in Unicode's NFC (nor \"release\" or \"organiser\")"
        var object = try JSON(HuntFixture.hunt().fileBytes)
        var teams = try #require(object["teams"]?.array)
        try #require(teams.count > 1 && teams[1].object != nil)
        teams[1]["name"] = .string(name)
        object["teams"] = .array(teams)
        #expect(throws: HuntError(sentence)) { try HuntFile.decode(object.data) }
        let join = try #require(HuntFixture.hunt().joinFile(team: TeamName("red")!))
        object = try JSON(join.fileBytes)
        try #require(object.object != nil)
        object["team"] = .string(name)
        #expect(throws: HuntError(sentence)) { try HuntFile.decode(object.data) }
        #expect(TeamName(name) == nil)
        #expect(TeamName("red-2_B")?.rawValue == "red-2_B")
    }

    @Test(arguments: badKeys.indices)
    func badKeysAreRefusedWithTheSentenceTheyHad(index: Int) throws {
        let (label, field, value, sentence) = Self.badKeys[index]
        var object = try JSON(HuntFixture.hunt().fileBytes)
        try #require(object.object != nil)
        object[field] = value
        #expect(throws: HuntError(sentence), "\(label)") {
            try HuntFile.decode(object.data)
        }
    }

    @Test(arguments: untyped.indices)
    func fieldsOfTheWrongShapeAreRefusedWithASentence(index: Int) throws {
        let (label, field, value, words) = Self.untyped[index]
        var object = try JSON(HuntFixture.hunt().fileBytes)
        try #require(object.object != nil)
        object[field] = value
        do {
            _ = try HuntFile.decode(object.data)
            Issue.record("\(label) was accepted")
        } catch let error as HuntError {
            #expect(error.description.contains(words), "\(label): \(error.description)")
        }
    }

    /// A hunt file as chest wrote it before its ID, broker and release keys were typed reads, and writes back the
    /// same bytes: the broker as the organiser wrote it (no port added), the release key as it was.
    @Test func anOldFileReadsAndWritesBackTheSameBytes() throws {
        let old = """
            {
              "broker" : "mqtt://[::1]",
              "format" : "chest-hunt",
              "id" : "0123456789abcdef0123456789abcdef",
              "name" : "Old Town",
              "organiser" : "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=",
              "releases" : {
                "finale" : "ICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICA="
              },
              "sharePositions" : false,
              "teams" : [
                {
                  "name" : "red",
                  "password" : "pw-red-0123456789ab",
                  "publicKey" : "EBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBA="
                }
              ],
              "version" : 1
            }

            """
        let file = try HuntFile.decode(Data(old.utf8))
        #expect(file.id == HuntFixture.huntID)
        #expect(
            file.broker.host == "::1" && file.broker.port == 1883 && !file.broker.tls
                && file.broker.description == "mqtt://[::1]")
        #expect(file.releases?[ReleaseName("finale")!] == HuntFixture.releaseKey(0x20))
        #expect(String(decoding: file.fileBytes, as: UTF8.self) == old)
    }

    /// Keyed by `ReleaseName` and `MessageID`, the maps write the bytes the same maps keyed by their text wrote: one
    /// JSON object each, keys sorted as text.
    @Test func typedKeysWriteWhatTextKeysWrote() throws {
        var hunt = HuntFixture.hunt()
        hunt.releases = [
            ReleaseName("finale")!: HuntFixture.releaseKey(0x20), .start: HuntFixture.releaseKey(0x21),
            ReleaseName("Zed-2")!: HuntFixture.releaseKey(0x22),
        ]
        let page = HuntMessage.PageKey(key: HuntFixture.key(3), guarded: false)
        hunt.messages = Dictionary(
            uniqueKeysWithValues: [0x00, 0x0f, 0xa0, 0xff].map { byte in
                (
                    MessageID(bytes: [UInt8](repeating: byte, count: 16)),
                    HuntMessage(title: "Clue \(byte)", pages: [page])
                )
            })
        let texts = (
            releases: Dictionary(uniqueKeysWithValues: hunt.releases!.map { ($0.key.rawValue, $0.value) }),
            messages: Dictionary(uniqueKeysWithValues: hunt.messages!.map { ($0.key.rawValue, $0.value) })
        )
        for pretty in [true, false] {
            let encoder = ChestJSON.encoder(pretty: pretty)
            #expect(try encoder.encode(hunt.releases) == encoder.encode(texts.releases))
            #expect(try encoder.encode(hunt.messages) == encoder.encode(texts.messages))
        }
        let bytes = hunt.fileBytes
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(
            text.contains(
                #"""
                  "releases" : {
                    "Zed-2" : "IiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiI=",
                    "_start" : "ISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISE=",
                    "finale" : "ICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICA="
                  },
                """#), "\(text)")
        let decoded = try HuntFile.decode(bytes)
        #expect(decoded == hunt)
        #expect(decoded.fileBytes == bytes)
    }

    @Test func aReleaseNameIsATopicLevel() {
        for name in ["finale", "_start", "a", "Z-9_x", String(repeating: "r", count: 32)] {
            #expect(ReleaseName(name)?.rawValue == name && ReleaseName(name)?.description == name, "\(name)")
        }
        for name in ["", "a b", "a/b", "+", "#", "é", String(repeating: "r", count: 33)] {
            #expect(ReleaseName(name) == nil, "\(name)")
        }
        #expect(ReleaseName.start.rawValue == HuntRelease.startName)
        #expect(ReleaseName("a")! < ReleaseName("b")!)
    }

    /// `<chest>/releases.json` as chestd wrote it (Foundation's encoder, slashes escaped) reads as release keys, kept
    /// as written.
    @Test func anOldReleasesFileReads() throws {
        let old =
            #"{"finale":"\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/\/8="}"#
        let releases = try JSONDecoder().decode([String: ReleaseKey].self, from: Data(old.utf8))
        #expect(releases["finale"]?.base64 == "//////////////////////////////////////////8=")
        #expect(String(decoding: try JSONEncoder().encode(releases), as: UTF8.self) == old)
    }

    @Test func missingFieldsAndWrongTypesAreNamed() throws {
        var object = try JSON(HuntFixture.hunt().fileBytes)
        try #require(object.object != nil)
        object["broker"] = nil
        #expect(throws: HuntError("not a chest hunt file: \"broker\" is missing")) {
            try HuntFile.decode(object.data)
        }
        object["broker"] = 42
        #expect(throws: HuntError("not a chest hunt file: \"broker\" is not text")) {
            try HuntFile.decode(object.data)
        }
        #expect(throws: HuntError("not a chest hunt file: not JSON")) { try HuntFile.decode(Data("{".utf8)) }
        #expect(throws: HuntError("not a chest hunt file: larger than 33554432 bytes")) {
            try HuntFile.decode(Data(count: HuntFile.sizeLimit + 1))
        }
    }

    @Test(arguments: [
        ("mqtt://localhost", "localhost", 1883, false),
        ("mqtts://broker.example", "broker.example", 8883, true),
        ("mqtt://127.0.0.1:18830", "127.0.0.1", 18830, false),
        ("mqtts://[::1]:8884", "::1", 8884, true),
        ("mqtt://[fe80::1]", "fe80::1", 1883, false),
    ])
    func brokerURLsParse(text: String, host: String, port: Int, tls: Bool) throws {
        let url = try #require(BrokerURL(text))
        #expect(url.host == host && url.port == port && url.tls == tls)
        #expect(url.description == text && BrokerURL(url.description) == url)
    }

    @Test(arguments: [
        "http://x", "mqtt://", "mqtt://:1883", "mqtt://host:", "mqtt://host:65536", "mqtt://host:-1",
        "mqtt://host:1883/path", "mqtt://user@host", "mqtt://[::1", "mqtt://[]:1", "mqtt://[::1]x",
        "mqtt://ho st", "mqtt://-host", "MQTT://host", "mqtt://host:88888", "mqtt://[::1]:0",
    ])
    func badBrokerURLsAreRefused(text: String) {
        #expect(BrokerURL(text) == nil)
    }
}
