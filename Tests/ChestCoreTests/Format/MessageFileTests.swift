import Foundation
import Testing

@testable import ChestCore

/// A message file written by hand, with named fields replaced or removed.
private enum Wire {
    static let key = Data(repeating: 7, count: 32).base64EncodedString()
    static let signature = Data(repeating: 9, count: 64).base64EncodedString()
    static let pinHash = "$argon2id$v=19$m=65536,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNo"
    static let page = #"{"text": "Hello", "a": [{"type": "pin", "argon2id": "\#(pinHash)"}]}"#

    static func page(_ locks: String, set: String = "a") -> String { #"{"text": "p", "\#(set)": [\#(locks)]}"# }

    /// The raw JSON values of a valid file; `overrides` replace them (nil removes the field).
    static func file(_ overrides: [String: String?] = [:]) -> String {
        var fields: [String: String?] = [
            "format": #""chest-message""#, "version": "1", "id": #""0123456789abcdef0123456789abcdef""#,
            "title": #""A title""#, "from": #""Alice""#, "created": #""2026-06-01T12:00:00Z""#,
            "pages": "[\(page)]", "publicKey": #""\#(key)""#, "signature": #""\#(signature)""#,
        ]
        for (name, value) in overrides { fields[name] = value }
        let body = fields.keys.sorted().compactMap { name in fields[name]!.map { "\"\(name)\": \($0)" } }
        return "{" + body.joined(separator: ", ") + "}"
    }

    static func pages(_ list: String...) -> [String: String?] { ["pages": "[" + list.joined(separator: ", ") + "]"] }
}

struct FileCase: Sendable, CustomTestStringConvertible {
    var name: String
    var json: String
    var expected: String
    var testDescription: String { name }
}

private func decodeError(_ data: Data) -> MessageFormatError? {
    do {
        _ = try MessageFile.decode(data)
        return nil
    } catch {
        return error
    }
}

@Suite struct MessageFileTests {
    static let location = #"{"type": "location", "latitude": 48.85837, "longitude": 2.29448, "radius": 30}"#

    static let invalidFiles: [FileCase] = [
        FileCase(
            name: "no pages", json: Wire.file(["pages": "[]"]),
            expected: "a message has 1 to 5 pages, this one has 0"),
        FileCase(
            name: "six pages",
            json: Wire.file(
                Wire.pages(
                    Wire.page, Wire.page, Wire.page, Wire.page, Wire.page,
                    Wire.page)),
            expected: "a message has 1 to 5 pages, this one has 6"),
        FileCase(
            name: "two PIN locks in set A",
            json: Wire.file(
                Wire.pages(
                    Wire.page(
                        #"{"type": "pin", "argon2id": "\#(Wire.pinHash)"}, "#
                            + #"{"type": "pin", "argon2id": "\#(Wire.pinHash)"}"#))),
            expected: "page 1 has two pin locks in set A; a set holds at most one of each type"),
        FileCase(
            name: "two location locks in set B of page 2",
            json: Wire.file(Wire.pages(Wire.page, Wire.page(location + ", " + location, set: "b"))),
            expected: "page 2 has two location locks in set B; a set holds at most one of each type"),
        FileCase(
            name: "radius 5 m",
            json: Wire.file(
                Wire.pages(
                    Wire.page(
                        #"{"type": "location", "latitude": 48.85837, "longitude": 2.29448, "radius": 5}"#))),
            expected: "page 1: a location radius of 5 m is under the 10 m minimum"),
        FileCase(
            name: "radius 9.5 m",
            json: Wire.file(
                Wire.pages(
                    Wire.page,
                    Wire.page(
                        #"{"type": "location", "latitude": 0, "longitude": 0, "radius": 9.5}"#))),
            expected: "page 2: a location radius of 9.5 m is under the 10 m minimum"),
        FileCase(
            name: "latitude 91",
            json: Wire.file(
                Wire.pages(
                    Wire.page(
                        #"{"type": "location", "latitude": 91, "longitude": 2, "radius": 30}"#))),
            expected: "page 1: latitude 91.0 is outside -90..90"),
        FileCase(
            name: "latitude -90.5",
            json: Wire.file(
                Wire.pages(
                    Wire.page(
                        #"{"type": "location", "latitude": -90.5, "longitude": 2, "radius": 30}"#))),
            expected: "page 1: latitude -90.5 is outside -90..90"),
        FileCase(
            name: "longitude 180.5",
            json: Wire.file(
                Wire.pages(
                    Wire.page(
                        #"{"type": "location", "latitude": 45, "longitude": 180.5, "radius": 30}"#))),
            expected: "page 1: longitude 180.5 is outside -180..180"),
        FileCase(
            name: "reversed temperature range",
            json: Wire.file(Wire.pages(Wire.page(#"{"type": "temperature", "min": 3, "max": -5}"#))),
            expected: "page 1: the temperature range 3..-5 is empty or reversed; write MIN..MAX with MIN <= MAX"),
        FileCase(
            name: "reversed altitude range",
            json: Wire.file(Wire.pages(Wire.page(#"{"type": "altitude", "min": 1300, "max": 1200.5}"#))),
            expected: "page 1: the altitude range 1300..1200.5 is empty or reversed; write MIN..MAX with MIN <= MAX"),
        FileCase(
            name: "range without max",
            json: Wire.file(Wire.pages(Wire.page(#"{"type": "altitude", "min": 1300}"#))),
            expected: #"the field "pages[1].min/max" is missing"#),
        FileCase(
            name: "unknown weather",
            json: Wire.file(Wire.pages(Wire.page(#"{"type": "weather", "condition": "foggy"}"#))),
            expected: #"page 1: unknown weather "foggy"; use one of clear, cloudy, rainy, snowy, thundery"#),
        FileCase(
            name: "time that is not ISO 8601",
            json: Wire.file(Wire.pages(Wire.page(#"{"type": "time", "at": "tomorrow"}"#))),
            expected: #"page 1: "tomorrow" is not an ISO 8601 time such as 2026-12-24T18:00:00+01:00"#),
        FileCase(
            name: "time without a zone",
            json: Wire.file(Wire.pages(Wire.page(#"{"type": "time", "at": "2026-12-24T18:00:00"}"#))),
            expected: #"page 1: "2026-12-24T18:00:00" is not an ISO 8601 time"#),
        FileCase(
            name: "unknown lock type",
            json: Wire.file(Wire.pages(Wire.page(#"{"type": "magic"}"#))),
            expected: #"page 1: unknown lock type "magic""#),
        FileCase(
            name: "lock without type",
            json: Wire.file(Wire.pages(Wire.page(#"{"condition": "clear"}"#))),
            expected: #"the field "pages[1].type" is missing"#),
        FileCase(
            name: "PIN lock with a hash that is not Argon2id",
            json: Wire.file(Wire.pages(Wire.page(#"{"type": "pin", "argon2id": "1234"}"#))),
            expected: #"the field "pages[1].argon2id" is invalid: not an Argon2id hash"#),
        FileCase(
            name: "PIN hash asking for 2 GiB",
            json: Wire.file(
                Wire.pages(
                    Wire.page(
                        #"{"type": "pin", "argon2id": "$argon2id$v=19$m=2097152,t=2,p=1$c2FsdA$aGFzaA"}"#))),
            expected: #"the field "pages[1].argon2id" is invalid: its memory cost m=2097152 KiB is outside 8...131072"#),
        FileCase(
            name: "PIN hash with t=2^32-1",
            json: Wire.file(
                Wire.pages(
                    Wire.page(
                        #"{"type": "pin", "argon2id": "$argon2id$v=19$m=65536,t=4294967295,p=1$c2FsdA$aGFzaA"}"#))),
            expected: #"the field "pages[1].argon2id" is invalid: its time cost t=4294967295 is outside 1...4"#),
        FileCase(
            name: "PIN hash with 8 lanes",
            json: Wire.file(
                Wire.pages(
                    Wire.page(
                        #"{"type": "pin", "argon2id": "$argon2id$v=19$m=65536,t=2,p=8$c2FsdA$aGFzaA"}"#))),
            expected: #"the field "pages[1].argon2id" is invalid: its parallelism p=8 is outside 1...1"#),
        FileCase(
            name: "PIN hash with a parameter twice",
            json: Wire.file(
                Wire.pages(
                    Wire.page(
                        #"{"type": "pin", "argon2id": "$argon2id$v=19$m=8,m=65536,t=2$c2FsdA$aGFzaA"}"#))),
            expected: #"the field "pages[1].argon2id" is invalid: the parameters "m=8,m=65536,t=2" are not m=…,t=…,p=…"#
        ),
        FileCase(
            name: "PIN hash of Argon2 version 16",
            json: Wire.file(
                Wire.pages(
                    Wire.page(
                        #"{"type": "pin", "argon2id": "$argon2id$v=16$m=65536,t=2,p=1$c2FsdA$aGFzaA"}"#))),
            expected: #"the field "pages[1].argon2id" is invalid: Argon2 version v=16 is not 19"#),
        FileCase(
            name: "title of one letter and 150,000 combining marks",
            json: Wire.file(["title": "\"a" + String(repeating: "\u{301}", count: 150_000) + "\""]),
            expected: "the title has 150001 characters, over 200"),
        FileCase(
            name: "sender name too long", json: Wire.file(["from": "\"" + String(repeating: "z", count: 101) + "\""]),
            expected: #"the field "from" is invalid: 101 characters, over 100"#),
        FileCase(
            name: "page of combining marks",
            json: Wire.file(Wire.pages(#"{"text": "e\#(String(repeating: "\u{301}", count: 20_000))"}"#)),
            expected: "page 1 has 20001 characters, over 20000"),
        FileCase(
            name: "format version 7", json: Wire.file(["version": "7"]),
            expected: "format version 7 is not supported (this chest reads versions 1 to 6); update chest"),
        FileCase(
            name: "a version 1 file edited to claim version 2", json: Wire.file(["version": "2"]),
            expected: "a format 2 file cannot carry the field \"pages[1].text\" (it belongs to format 1)"),
        FileCase(
            name: "no version", json: Wire.file(["version": nil]),
            expected: #"the field "version" is missing"#),
        FileCase(
            name: "truncated JSON", json: String(Wire.file().dropLast(40)),
            expected: "the file is not a complete JSON message (truncated?): "),
        FileCase(
            name: "JSON of another program", json: #"{"name": "package", "version": 1}"#,
            expected: #"the file is JSON but not a chest message (no "format": "chest-message")"#),
        FileCase(
            name: "another format name", json: Wire.file(["format": #""chest-settings""#]),
            expected: #"the file is JSON but not a chest message (no "format": "chest-message")"#),
        FileCase(name: "missing id", json: Wire.file(["id": nil]), expected: #"the field "id" is missing"#),
        FileCase(
            name: "upper-case id", json: Wire.file(["id": #""0123456789ABCDEF0123456789ABCDEF""#]),
            expected: #"the field "id" is invalid: not 32 lowercase hexadecimal digits"#),
        FileCase(name: "missing title", json: Wire.file(["title": nil]), expected: #"the field "title" is missing"#),
        FileCase(name: "blank title", json: Wire.file(["title": #"" \n ""#]), expected: "the title is empty"),
        FileCase(
            name: "title too long", json: Wire.file(["title": "\"" + String(repeating: "x", count: 201) + "\""]),
            expected: "the title has 201 characters, over 200"),
        FileCase(name: "missing from", json: Wire.file(["from": nil]), expected: #"the field "from" is missing"#),
        FileCase(
            name: "bad created", json: Wire.file(["created": #""yesterday""#]),
            expected: #"the field "created" is invalid: not an ISO 8601 time"#),
        FileCase(name: "missing pages", json: Wire.file(["pages": nil]), expected: #"the field "pages" is missing"#),
        FileCase(
            name: "page without text", json: Wire.file(Wire.pages(#"{"a": []}"#)),
            expected: #"the field "pages[1].text" is missing"#),
        FileCase(
            name: "page too long",
            json: Wire.file(Wire.pages(#"{"text": "\#(String(repeating: "y", count: 20_001))"}"#)),
            expected: "page 1 has 20001 characters, over 20000"),
        FileCase(
            name: "signature that is not base64", json: Wire.file(["signature": #""not base64!""#]),
            expected: #"the field "signature" is invalid: not a base64 Ed25519 signature"#),
        FileCase(
            name: "signature of 63 bytes",
            json: Wire.file(["signature": "\"\(Data(repeating: 1, count: 63).base64EncodedString())\""]),
            expected: #"the field "signature" is invalid: not a base64 Ed25519 signature"#),
        FileCase(
            name: "public key of 31 bytes",
            json: Wire.file(["publicKey": "\"\(Data(repeating: 1, count: 31).base64EncodedString())\""]),
            expected: #"the field "publicKey" is invalid: not a base64 Ed25519 public key"#),
        FileCase(
            name: "no signature", json: Wire.file(["signature": nil]),
            expected: "the message carries no signature"),
        FileCase(
            name: "no seal at all", json: Wire.file(["signature": nil, "publicKey": nil]),
            expected: "the message carries no signature"),
    ]

    @Test(arguments: invalidFiles)
    func refusesInvalidFile(_ testCase: FileCase) throws {
        let error = try #require(decodeError(Data(testCase.json.utf8)), "decoded \(testCase.json)")
        #expect(error.description.contains(testCase.expected), "\(error.description)")
    }

    static let invalidBytes: [(String, Data, String)] = [
        ("empty", Data(), "the file is empty"),
        (
            "over 13 MiB", Data(repeating: 0x20, count: MessageFile.fileLimit + 1),
            "the file is 13631489 bytes, over the 13631488-byte limit for a message"
        ),
        ("not UTF-8", Data([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), "the file is not UTF-8 text"),
        (
            "Latin-1 title", Data(Wire.file(["title": "\"caf\u{e9}\""]).data(using: .isoLatin1)!),
            "the file is not UTF-8 text"
        ),
    ]

    @Test(arguments: invalidBytes)
    func refusesInvalidBytes(_ name: String, _ data: Data, _ expected: String) throws {
        let error = try #require(decodeError(data), "decoded \(name)")
        #expect(error.description == expected)
    }

    @Test func acceptsAFileOfExactlyTheLimit() throws {
        var text = Wire.file()
        text.removeLast()
        text += String(repeating: " ", count: MessageFile.sizeLimit - text.utf8.count - 1) + "}"
        #expect(text.utf8.count == MessageFile.sizeLimit)
        let message = try MessageFile.decode(Data(text.utf8))
        #expect(message.title == "A title")
        // Only attachments may take a file past 1 MiB.
        text.removeLast()
        text += " }"
        #expect(
            decodeError(Data(text.utf8))?.description
                == "the file is 1048577 bytes, over the 1048576-byte limit for a message")
    }

    @Test func decodesTheHandWrittenFile() throws {
        let message = try MessageFile.decode(Data(Wire.file().utf8))
        #expect(message.id.rawValue == "0123456789abcdef0123456789abcdef")
        #expect(message.from == "Alice")
        #expect(message.created == ISO8601.parse("2026-06-01T12:00:00Z"))
        #expect(message.pages == [Page(text: "Hello", setA: [.pin(hash: Wire.pinHash)])])
        #expect(
            message.seal
                == Seal(
                    publicKey: [UInt8](repeating: 7, count: 32),
                    signature: [UInt8](repeating: 9, count: 64)))
    }

    /// Every kind of lock, both sets, five pages (one lockless), an emoji title.
    static let everything = CoreFixture.message(
        title: "Chasse au trésor 🗝️",
        pages: [
            Page(
                text: "Under the oak.", setA: [.location(center: CoreFixture.tower, radius: 30)],
                setB: [.pin(hash: Wire.pinHash)]),
            Page(
                text: "Happy birthday!",
                setA: [
                    .time(ISO8601.parse("2026-12-24T18:00:00+01:00")!),
                    .weather(.snowy), .temperature(Bounds(min: -5, max: 3)),
                ]),
            Page(
                text: "On the summit",
                setA: [
                    .altitude(Bounds(min: 1200, max: 1300.5)),
                    .location(
                        center: Coordinate(latitude: -33.8568, longitude: 151.2153),
                        radius: 2500),
                ],
                setB: [.weather(.thundery), .time(Date(timeIntervalSince1970: 0))]),
            Page(text: "Always open \"quoted\" / slashed\nnew line"),
            Page(text: "", setB: [.temperature(Bounds(min: 20, max: 20))]),
        ])

    @Test func roundTrips() throws {
        let data = MessageFile.encode(Self.everything)
        #expect(data.last == 0x0a)
        #expect(try MessageFile.decode(data) == Self.everything)
        // Encoding is deterministic.
        #expect(MessageFile.encode(try MessageFile.decode(data)) == data)
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains(#""format" : "chest-message""#))
        #expect(text.contains(#""version" : 1"#))
    }

    @Test func validatesAnUnsealedMessageInMemory() throws {
        var message = Self.everything
        message.seal = nil
        try MessageFile.validate(message)
        message.pages = []
        #expect(throws: MessageFormatError.pageCount(0)) { try MessageFile.validate(message) }
    }

    @Test func signedBytesExcludeTheSignature() throws {
        let message = Self.everything
        let signed = MessageFile.signedBytes(of: message)
        let text = try #require(String(data: signed, encoding: .utf8))
        #expect(!text.contains(Wire.signature))
        #expect(!text.contains("\"signature\""))
        #expect(text.contains(Wire.key))
        var resigned = message
        resigned.seal?.signature = [UInt8](repeating: 1, count: 64)
        #expect(MessageFile.signedBytes(of: resigned) == signed)
    }

    struct Change: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var apply: @Sendable (inout Message) -> Void
    }

    static let changes: [Change] = [
        Change(testDescription: "title") { $0.title += "!" },
        Change(testDescription: "sender") { $0.from = "Mallory" },
        Change(testDescription: "radius") { $0.pages[0].setA = [.location(center: CoreFixture.tower, radius: 31)] },
        Change(testDescription: "centre") {
            $0.pages[0].setA = [.location(center: Coordinate(latitude: 48.85838, longitude: 2.29448), radius: 30)]
        },
        Change(testDescription: "time") {
            $0.pages[1].setA[0] = .time(ISO8601.parse("2026-12-24T18:00:01+01:00")!)
        },
        Change(testDescription: "PIN hash") { $0.pages[0].setB = [.pin(hash: Wire.pinHash + "A")] },
        Change(testDescription: "page text") { $0.pages[3].text += " " },
        Change(testDescription: "weather") { $0.pages[1].setA[1] = .weather(.rainy) },
        Change(testDescription: "temperature") { $0.pages[1].setA[2] = .temperature(Bounds(min: -5, max: 4)) },
        Change(testDescription: "a lock moved to the other set") {
            $0.pages[0].setA = [.pin(hash: Wire.pinHash)]
            $0.pages[0].setB = [.location(center: CoreFixture.tower, radius: 30)]
        },
        Change(testDescription: "a page removed") { $0.pages.removeLast() },
        Change(testDescription: "public key") { $0.seal?.publicKey[0] = 8 },
    ]

    @Test(arguments: changes)
    func signedBytesChangeWith(_ change: Change) {
        var changed = Self.everything
        change.apply(&changed)
        #expect(MessageFile.signedBytes(of: changed) != MessageFile.signedBytes(of: Self.everything))
    }
}
