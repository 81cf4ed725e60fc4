import ChestTestSupport
import Foundation
import Glibc
import Testing

/// A library the program opens on demand that is missing is an error of the command that needs it, naming the
/// package to install; the program goes on as after any other error (docs/PACKAGING.md "Libraries loaded on
/// demand"). The library is hidden from one `chest` in a mount namespace of its own, where /dev/null is bound over its
/// file, which needs root (CI runs as root).
@Suite(
    .realProcesses, .tags(.process), .timeLimit(.minutes(2)),
    .enabled(if: getuid() == 0, "hiding a library in a mount namespace (unshare --mount) needs root"))
struct OnDemandLibraryTests {
    @Test func aMissingLibxml2IsAnErrorOfTheCommandNamingItsPackage() throws {
        let world = ChestHarness()
        let course = GPSLogs.packageRoot.path + "/Tests/Fixtures/geocaching/cgeo_gpx11_course.gpx"
        // With libxml2 there, the same command reads the course.
        let read = try world.chest(["quest", "from", course, "-o", "course.quest"])
        #expect(read.status == 0, "\(read.stderr)")

        let outcome = try Self.withoutLibrary(
            "libxml2.so.2", world, ["quest", "from", course, "-o", "hidden.quest"])
        #expect(outcome.stderr.contains("cannot load libxml2.so.2"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("sudo apt install libxml2"), "\(outcome.stderr)")
        // The command's own failure, reported as its others are: not a status of its own from C, nor an abort.
        #expect(outcome.status == 1, "status \(outcome.status): \(outcome.stderr)")
        #expect(!outcome.stderr.contains("bug"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: world.root + "/hidden.quest"))
    }

    /// A chestd whose hunt's link cannot load libmosquitto logs why, naming the package, and goes on serving its
    /// chest (it exited with status 69 from C before, and every message's unlocking with it).
    @Test func chestdWithoutLibmosquittoSaysSoAndGoesOn() throws {
        let world = ChestHarness()
        defer { world.stopDaemon() }
        // No broker runs: the link would keep trying to reach it.
        let created = try world.chest(
            ["hunt", "create", "Lib hunt", "--broker", "mqtt://127.0.0.1:9", "-o", "lib.hunt"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(try world.chest(["hunt", "team", "add", "red", "--hunt", "lib.hunt", "-o", "red.hunt"]).status == 0)
        #expect(try world.chest(["hunt", "join", "red.hunt"]).status == 0)

        world.daemonProcess = try TestProcess(
            "/usr/bin/unshare", try Self.hiding("libmosquitto.so.1") + [ChestHarness.products + "/chestd"],
            wholeEnvironment: world.environment(), stdout: world.log, stderr: world.log, directory: world.root)
        try world.waitUntil("chestd says libmosquitto is missing", timeout: 30) {
            world.daemonLog.contains("cannot load libmosquitto.so.1") || !world.daemonIsRunning
        }
        #expect(world.daemonLog.contains("install it: sudo apt install libmosquitto1"), "\(world.daemonReport)")
        #expect(world.daemonIsRunning, "\(world.daemonReport)")
        let status = try world.chest(["status"])
        #expect(status.status == 0, "\(status.stderr); \(world.daemonReport)")
    }

    /// Runs `chest ARGUMENTS` for `world` with /dev/null bound over the file `soname` names in the linker's cache.
    static func withoutLibrary(_ soname: String, _ world: ChestHarness, _ arguments: [String]) throws
        -> Subprocess.Outcome
    {
        try Subprocess.run(
            "/usr/bin/unshare", try hiding(soname) + [ChestHarness.products + "/chest"] + arguments,
            environment: world.environment(), directory: world.root)
    }

    /// unshare(1)'s arguments before a command that is to run in a mount namespace of its own, where /dev/null is
    /// bound over the file `soname` names in the linker's cache.
    static func hiding(_ soname: String) throws -> [String] {
        let cache = try Subprocess.run("/sbin/ldconfig", ["-p"], environment: [:]).stdout
        let path = try #require(
            cache.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(soname + " ") }
                .flatMap { $0.components(separatedBy: " => ").last },
            "\(soname) is not in the linker's cache")
        return ["--mount", "/bin/sh", "-c", #"mount --bind /dev/null "$0" && exec "$@""#, path]
    }
}
