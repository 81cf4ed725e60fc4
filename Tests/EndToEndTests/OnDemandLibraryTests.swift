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

    /// Runs `chest ARGUMENTS` for `world` with /dev/null bound over the file `soname` names in the linker's cache.
    static func withoutLibrary(_ soname: String, _ world: ChestHarness, _ arguments: [String]) throws
        -> Subprocess.Outcome
    {
        let cache = try Subprocess.run("/sbin/ldconfig", ["-p"], environment: [:]).stdout
        let path = try #require(
            cache.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(soname + " ") }
                .flatMap { $0.components(separatedBy: " => ").last },
            "\(soname) is not in the linker's cache")
        let script = #"mount --bind /dev/null "$0" && exec "$@""#
        return try Subprocess.run(
            "/usr/bin/unshare",
            ["--mount", "/bin/sh", "-c", script, path, ChestHarness.products + "/chest"] + arguments,
            environment: world.environment(), directory: world.root)
    }
}
