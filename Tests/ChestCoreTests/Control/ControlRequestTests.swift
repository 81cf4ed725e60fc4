import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

/// `ControlRequest`, one case per operation: today's wire lines read and written the same, a missing field refused
/// by name, and `import` and `reload` decided by the engine (docs/ARCHITECTURE.md "The engine and its edges").
@Suite struct ControlRequestTests {
    static let lines: [(String, ControlRequest)] = [
        (#"{"op":"status"}"#, .status),
        (#"{"op":"list"}"#, .list(saved: false)),
        (#"{"op":"list","saved":true}"#, .list(saved: true)),
        (#"{"id":"7f3a","op":"read"}"#, .read(id: "7f3a")),
        (#"{"id":"7f3a","op":"pin","page":2,"pin":"4821"}"#, .pin(id: "7f3a", pin: "4821", page: 2)),
        (#"{"id":"7f3a","op":"pin","pin":"4821"}"#, .pin(id: "7f3a", pin: "4821", page: nil)),
        (#"{"id":"7f3a","op":"answer","page":2,"text":"Zytglogge"}"#, .answer(id: "7f3a", text: "Zytglogge", page: 2)),
        (#"{"id":"7f3a","op":"answer","text":"Zeit glocken"}"#, .answer(id: "7f3a", text: "Zeit glocken", page: nil)),
        (#"{"id":"7f3a","op":"save"}"#, .save(id: "7f3a")),
        (#"{"id":"7f3a","op":"unsave"}"#, .unsave(id: "7f3a")),
        (#"{"id":"7f3a","op":"delete"}"#, .delete(id: "7f3a")),
        (#"{"op":"undelete"}"#, .undelete(id: nil)),
        (#"{"id":"7f","op":"undelete"}"#, .undelete(id: "7f")),
        (#"{"op":"watch"}"#, .watch),
        (#"{"op":"fix"}"#, .fix),
        (#"{"op":"import","path":"\/tmp\/a.locked"}"#, .import(path: "/tmp/a.locked")),
        (#"{"op":"reload"}"#, .reload),
        (#"{"op":"config"}"#, .config),
    ]

    @Test func everyOperationReadsAndWritesTheWireLine() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for (line, request) in Self.lines {
            #expect(try JSONDecoder().decode(ControlRequest.self, from: Data(line.utf8)) == request, "\(line)")
            #expect(String(decoding: try encoder.encode(request), as: UTF8.self) == line)
        }
        // Fields an operation does not take are ignored, as before.
        #expect(try JSONDecoder().decode(ControlRequest.self, from: Data(#"{"op":"status","id":"x"}"#.utf8)) == .status)
    }

    @Test func aMissingFieldIsRefusedByName() {
        for (line, field) in [
            (#"{"op":"read"}"#, "id"), (#"{"op":"pin","id":"7f"}"#, "pin"), (#"{"op":"answer","id":"7f"}"#, "text"),
            (#"{"op":"import"}"#, "path"),
        ] {
            do {
                let request = try JSONDecoder().decode(ControlRequest.self, from: Data(line.utf8))
                Issue.record("\(line) was read as \(request)")
            } catch let refusal as ControlRequest.Refusal {
                #expect(refusal.description.hasSuffix("needs \"\(field)\""), "\(refusal)")
            } catch {
                Issue.record("\(line): \(error)")
            }
        }
    }

    @Test func theEngineDecidesImportAndReload() {
        var engine = F.engine([])
        #expect(
            engine.handle(.request(F.client, .import(path: "a.locked"), F.now(1)))
                == [.reply(F.client, .failure("import needs an absolute path"))])
        #expect(
            engine.handle(.request(F.client, .import(path: "/tmp/a.locked"), F.now(1))) == [
                .readForImport("/tmp/a.locked", F.client)
            ])
        #expect(engine.handle(.request(F.client, .reload, F.now(1))) == [.readSettings(F.client)])
        let notes = ["socket takes effect when chestd restarts"]
        #expect(
            engine.handle(.settingsRead(F.client, SettingsReading(notes: notes, weatherMaximumAge: 600))) == [
                .reply(F.client, .notes(notes))
            ])
        #expect(engine.weatherSchedule.maxAge == 600)
        // SIGHUP: nobody to tell; a file that could not be read keeps the old value.
        #expect(
            engine.handle(.settingsRead(nil, SettingsReading(notes: ["cannot read"], weatherMaximumAge: nil))).isEmpty)
        #expect(engine.weatherSchedule.maxAge == 600)
    }

    @Test func configAsksTheDaemonForItsSettingsAndRepliesWithThem() throws {
        var engine = F.engine([])
        #expect(engine.handle(.request(F.client, .config, F.now(1))) == [.describeSettings(F.client)])
        let settings = EffectiveSettings(
            configPath: "/home/a/.config/chest/config.json",
            settings: [
                .init(key: "gpsd", value: "127.0.0.1:2948", origin: "command line")
            ])
        let effects = engine.handle(.settingsDescribed(F.client, settings))
        #expect(effects == [.reply(F.client, .settings(settings))])
        let line = try #require(
            effects.first.flatMap { if case let .reply(_, reply) = $0 { reply.line(timeZone: .utc) } else { nil } })
        let reply = try JSONDecoder().decode(ControlReply<EffectiveSettings>.self, from: line)
        #expect(reply.result?["gpsd"]?.origin == "command line")
    }
}
