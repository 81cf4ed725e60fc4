import ChestCore
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// `chest config` while chestd runs shows chestd's own settings and where each came from, which may not be the
/// shell's: a command-line flag, its environment, the config file, a default.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(1)))
struct ConfigTests {
    static func row(_ key: String, _ value: String, _ origin: String, in text: String) -> Bool {
        let pattern =
            "\\n  " + NSRegularExpression.escapedPattern(for: key) + "\\s+"
            + NSRegularExpression.escapedPattern(for: value)
            + "\\s+" + NSRegularExpression.escapedPattern(for: origin) + "\\n"
        return text.range(of: pattern, options: .regularExpression) != nil
    }

    @Test func showsTheRunningChestdsValuesAndWhereEachCameFrom() throws {
        let world = ChestHarness()
        let directory = world.root + "/config-reader/chest"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try #"{"name": "Reader", "weather.maxAgeMinutes": "45"}"#.write(
            toFile: directory + "/config.json", atomically: true,
            encoding: .utf8)
        try world.startDaemon(["--weather-url", "http://127.0.0.1:9/"])
        // This shell points at another gpsd than chestd was started with.
        var shell = world.environment()
        shell["CHEST_GPSD"] = "127.0.0.1:10"
        let shown = try Subprocess.run(ChestHarness.products + "/chest", ["config"], environment: shell)
        #expect(shown.status == 0, "\(shown.stderr)")
        let text = shown.stdout
        print("chest config, chestd running:\n\(text)")
        let sections = text.components(separatedBy: "this shell's own settings differ")
        #expect(
            text.hasPrefix("chestd is running with these settings (settings file \(directory)/config.json):"), "\(text)"
        )
        let chestd = sections[0]
        #expect(Self.row("gpsd", "127.0.0.1:9", "environment ($CHEST_GPSD)", in: chestd), "\(text)")
        #expect(Self.row("weather.url", "http://127.0.0.1:9/", "command line", in: chestd), "\(text)")
        #expect(Self.row("weather.maxAgeMinutes", "45", "config file", in: chestd), "\(text)")
        #expect(Self.row("name", "Reader", "config file", in: chestd), "\(text)")
        #expect(Self.row("hook.timeoutSeconds", "10", "default", in: chestd), "\(text)")
        #expect(Self.row("socket", world.socket, "environment ($CHEST_SOCKET)", in: chestd), "\(text)")
        // What this shell would use instead.
        #expect(sections.count == 2, "\(text)")
        let differences = sections.count == 2 ? sections[1] : ""
        #expect(Self.row("gpsd", "127.0.0.1:10", "environment ($CHEST_GPSD)", in: differences), "\(text)")
        #expect(Self.row("weather.url", "the provider's own", "default", in: differences), "\(text)")
        #expect(!differences.contains("weather.maxAgeMinutes"))

        // A change goes to the file and chestd reloads it: chestd now shows it.
        #expect(
            try world.chest(["config", "weather.maxAgeMinutes", "50"]).stdout.contains("chestd reloaded its settings"))
        #expect(Self.row("weather.maxAgeMinutes", "50", "config file", in: try world.chest(["config"]).stdout))

        world.stopDaemon()
        let stopped = try world.chest(["config"]).stdout
        #expect(stopped.hasPrefix("chestd is not running; the settings it would start with"), "\(stopped)")
        #expect(Self.row("weather.url", "the provider's own", "default", in: stopped), "\(stopped)")
    }
}
