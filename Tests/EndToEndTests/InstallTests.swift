import ChestTestSupport
import Foundation
import Testing

/// `make install` into a throwaway DESTDIR installs every file mk/install.mk lists, the one program with chestd,
/// chest-walk and chest-weather as relative links to it (each run by its name), and `make uninstall` removes
/// them all (scripts/check-install.sh, on the binaries the tests already have: a build inside `swift test` would wait forever
/// for the build directory's lock).
@Suite(.realProcesses, .tags(.process, .package), .serialized, .timeLimit(.minutes(3)))
struct InstallTests {
    @Test(arguments: ["/usr/local", "/usr"])
    func installListsEveryFileAndUninstallLeavesNothing(prefix: String) throws {
        let script = GPSLogs.packageRoot.path + "/scripts/check-install.sh"
        var environment = ProcessInfo.processInfo.environment
        environment["CHEST_BUILT"] = ChestHarness.products
        let outcome = try Subprocess.run("/bin/sh", [script, prefix], environment: environment)
        #expect(outcome.status == 0, "\(outcome.stdout)\n\(outcome.stderr)")
        #expect(
            outcome.stdout.contains("  -rwxr-xr-x \(prefix)/bin/chest\n"),
            "chest is not the program:\n\(outcome.stdout)")
        for (link, target) in [
            ("bin/chestd", "chest"), ("bin/chest-walk", "chest"), ("libexec/chest/chest-weather", "../../bin/chest"),
        ] {
            #expect(
                outcome.stdout.contains("  lrwxrwxrwx \(prefix)/\(link) -> \(target)\n"),
                "\(link) is not a link to \(target):\n\(outcome.stdout)")
        }
        for file in [
            "bin/chestd", "bin/chest", "bin/chest-walk", "libexec/chest/chest-weather",
            "lib/udev/rules.d/60-chest-gps.rules",
            "lib/systemd/user/chestd.service", "share/man/man1/chest.1", "share/man/man1/chest-walk.1",
            "share/man/man8/chestd.8",
            "share/bash-completion/completions/chest", "share/zsh/vendor-completions/_chest",
            "share/fish/vendor_completions.d/chest.fish", "share/chest/demo/hill.quest", "share/chest/demo/walk.txt",
        ] {
            #expect(outcome.stdout.contains(prefix + "/" + file), "\(file) not listed:\n\(outcome.stdout)")
        }
    }

    /// Issue 61: the release program had `RUNPATH $ORIGIN`, so a copy beside planted libraries loaded them. The
    /// builds of `make install` and `make deb` ask SwiftPM for none (`--disable-local-rpath`, which removes it: a
    /// package built with it has no RUNPATH at all), and deb.sh refuses a program that has one; PackageTests reads
    /// the packaged program's dynamic section.
    @Test func theReleaseBuildsCarryNoSearchPathOfTheirOwn() throws {
        let root = GPSLogs.packageRoot.path
        let install = try Subprocess.run(
            "/usr/bin/make", ["-n", "-f", root + "/mk/install.mk", "install-release-build", "SWIFT=swift"],
            environment: ["PATH": "/usr/bin:/bin"])
        let build = install.stdout.split(separator: "\n").first { $0.contains("swift build") } ?? ""
        #expect(build.contains("--disable-local-rpath"), "make install builds with: \(install.stdout)\(install.stderr)")
        let deb = try String(contentsOfFile: root + "/scripts/deb.sh", encoding: .utf8)
        #expect(deb.contains("--disable-local-rpath"), "scripts/deb.sh's build keeps RUNPATH $ORIGIN")
        #expect(deb.contains("(RUNPATH|RPATH)"), "scripts/deb.sh does not check the program it packages")
    }
}
