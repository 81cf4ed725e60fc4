import Foundation
import Testing

@testable import ChestIO

/// Settings are typed keys (`SettingKey`) with one rule each, applied both by `chest config KEY VALUE` and when the
/// file is read: flags over the environment over the file over defaults, a value its key does not take refused
/// with the rule (chestd does not start on it; chest says so and uses the default), an unknown key set aside and named.
@Suite struct SettingsTests {
    static func write(_ json: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/config.json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func flagsBeatTheEnvironmentWhichBeatsTheFile() throws {
        let path = try Self.write(
            #"{"chest": "/from/file", "gpsd": "file:1", "socket": "/file.sock", "notify": false, "weather.maxAgeMinutes": 45}"#
        )
        let settings = try Settings(
            environment: ["HOME": "/home/r", "CHEST_GPSD": "env:2", "CHEST_SOCKET": "/env.sock"],
            configPath: path, flags: [.socket: "/flag.sock"])
        #expect(settings.chestDirectory == "/from/file" && settings.origin(of: .chest) == .file)
        #expect(
            settings.gpsd.host == "env" && settings.gpsd.port == "2"
                && settings.origin(of: .gpsd) == .environment("CHEST_GPSD"))
        #expect(settings.socketPath == "/flag.sock" && settings.origin(of: .socket) == .flag)
        #expect(!settings.desktopNotifications, "a JSON false turns notifications off")
        #expect(settings.weatherMaximumAge == 45 * 60)
        #expect(settings.origin(of: .hook) == .unset && settings.effectiveValue(.hookTimeout) == "10")
        #expect(settings.origin(of: .gpsd).description == "environment ($CHEST_GPSD)")
    }

    @Test func anEnvironmentValueItsKeyDoesNotTakeIsRefusedWithTheRule() throws {
        let path = try Self.write(#"{"gpsd": "file:1"}"#)
        let settings = try Settings(
            environment: ["HOME": "/home/r", "CHEST_GPSD": "nonsense:port:x"], configPath: path)
        #expect(settings.gpsd.host == "file" && settings.origin(of: .gpsd) == .file, "the file's value stays under it")
        #expect(
            settings.invalid == [
                #"$CHEST_GPSD: gpsd is HOST:PORT with a port from 1 to 65535, such as localhost:2947, not "nonsense:port:x"; fix it or unset it"#
            ])
        #expect(throws: ChestError.self) { try settings.checked() }
    }

    @Test func aValueItsKeyDoesNotTakeIsRefusedWithTheRule() throws {
        for (json, rule) in [
            (#"{"weather.maxAgeMinutes": "soon"}"#, "weather.maxAgeMinutes is a number of minutes"),
            (#"{"notify": "maybe"}"#, "notify is true or false"),
            (#"{"gpsd": "localhost"}"#, "gpsd is HOST:PORT"),
        ] {
            let path = try Self.write(json)
            let settings = try Settings(environment: ["HOME": "/home/r"], configPath: path)
            #expect(settings.values.isEmpty, "\(json) was taken")
            do {
                _ = try settings.checked()
                Issue.record("chestd would start with \(json)")
            } catch {
                #expect(
                    error.description.hasPrefix("\(path): \(rule)")
                        && error.description.contains("fix it with chest config"),
                    "\(error)")
            }
        }
    }

    /// One default per key: what the help says, what `chest config` shows unset, and what the typed value is.
    @Test func eachFixedDefaultIsSaidAndUsedAsOne() throws {
        let settings = try Settings(environment: ["HOME": "/home/r"], configPath: try Self.write("{}"))
        for key in SettingKey.allCases {
            guard let fixed = key.fixedDefault else { continue }
            #expect(settings.effectiveValue(key) == fixed, "\(key)")
            #expect(
                key.help.contains("default \(fixed)") || key.help.contains("default \"\(fixed)\"") || key == .notify,
                "\(key): \(key.help)")
            #expect(key.problem(fixed) == nil, "\(key)'s default is not a value it takes")
        }
        #expect("\(settings.gpsd.host):\(settings.gpsd.port)" == SettingKey.gpsd.fixedDefault)
        #expect(settings.weatherMaximumAge == Double(SettingKey.weatherMaximumAge.fixedDefault!)! * 60)
        #expect(settings.hookTimeout == Double(SettingKey.hookTimeout.fixedDefault!)!)
        #expect(settings.desktopNotifications && settings.senderName == SettingKey.name.fixedDefault)
    }

    @Test func unknownKeysAreSetAsideAndNamedAndSecretsAreNotShown() throws {
        let path = try Self.write(#"{"nmae": "Alice", "weather.key": "s3cret"}"#)
        let settings = try Settings(environment: ["HOME": "/home/r"], configPath: path)
        #expect(settings.unknownKeys == ["nmae"])
        #expect(settings.senderName == "Sender")
        #expect(settings.weatherKey == "s3cret" && settings.effectiveValue(.weatherKey) == "(set)")
        #expect(throws: ChestError.self) { try SettingKey.named("nmae") }
        #expect(try SettingKey.named("hook.timeoutSeconds") == .hookTimeout)
    }
}
