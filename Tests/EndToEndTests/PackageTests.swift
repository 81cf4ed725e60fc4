import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// The package under test (outside the suite: its traits cannot refer to the suite's own members).
enum BuiltPackage {
    /// Under `make test` the package is built beside the tests: this file appears, holding the package's path, once
    /// it is built (the Makefile's TEST_DEB).
    static let stamp = ProcessInfo.processInfo.environment["CHEST_DEB_STAMP"].flatMap { $0.isEmpty ? nil : $0 }

    /// Whether there is, or will be, a package to test.
    static var isExpected: Bool { stamp != nil || path != nil }

    /// The package's path; under `make test`, once the package is built (the first test to ask waits for it).
    static let path: String? = {
        if let stamp {
            // A package build of a fresh clone is minutes of CPU beside the tests on a loaded machine; a build that
            // failed leaves `STAMP.failed` (make then prints its log), so the tests stop waiting at once.
            let failed = stamp + ".failed"
            guard
                holdsWithin(
                    900, every: 0.5,
                    {
                        FileManager.default.fileExists(atPath: stamp) || FileManager.default.fileExists(atPath: failed)
                    }),
                !FileManager.default.fileExists(atPath: failed),
                let named = try? String(contentsOfFile: stamp, encoding: .utf8)
            else { return nil }
            return named.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let named = ProcessInfo.processInfo.environment["CHEST_DEB"], !named.isEmpty {
            // apt-get takes a file for a package only when its path has a slash before the name: make it absolute.
            let path = named.hasPrefix("/") ? named : FileManager.default.currentDirectoryPath + "/" + named
            return FileManager.default.fileExists(atPath: path) ? path : nil
        }
        let directory = GPSLogs.packageRoot.path + "/.build/deb"
        let debs = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasPrefix("chest_") && $0.hasSuffix(".deb") }
        return debs.count == 1 ? directory + "/" + debs[0] : nil
    }()
}

/// The Debian package `make deb` built (docs/PACKAGING.md): its files, modes and control fields, its Depends checked
/// against what the binaries really link, the extracted programs and man pages working with no Swift toolchain on
/// PATH; and, as root (CI), installed with apt-get, `chest demo` run on the installed programs, and removed leaving
/// nothing behind.
///
/// The package is the one `make test` builds beside the tests (`CHEST_DEB_STAMP`), else `CHEST_DEB`, else the one in
/// `.build/deb`. A build inside `swift test` would wait for the build directory's lock, so without a package these
/// tests do not run.
// Not serialized: each test has a scratch directory of its own, and the four side by side take as long as the longest.
@Suite(
    .realProcesses, .tags(.process, .gpsd, .package), .timeLimit(.minutes(20)),
    .enabled(if: BuiltPackage.isExpected, "no package to test: run `make deb`, or set CHEST_DEB=FILE"))
struct PackageTests {
    static var package: String? { BuiltPackage.path }

    /// The program, pages and scripts the package must hold, with their modes; /usr/share/doc/chest is checked apart.
    static let expected: [String: String] = [
        "usr/bin/chest": "-rwxr-xr-x",
        "usr/lib/udev/rules.d/60-chest-gps.rules": "-rw-r--r--",
        "usr/lib/systemd/user/chestd.service": "-rw-r--r--",
        "usr/share/man/man1/chest.1.gz": "-rw-r--r--", "usr/share/man/man1/chest-walk.1.gz": "-rw-r--r--",
        "usr/share/man/man8/chestd.8.gz": "-rw-r--r--",
        "usr/share/bash-completion/completions/chest": "-rw-r--r--",
        "usr/share/zsh/vendor-completions/_chest": "-rw-r--r--",
        "usr/share/fish/vendor_completions.d/chest.fish": "-rw-r--r--",
        "usr/share/doc/chest/README.md": "-rw-r--r--", "usr/share/doc/chest/copyright": "-rw-r--r--",
        "usr/share/doc/chest/changelog.gz": "-rw-r--r--", "usr/share/doc/chest/docs/FORMAT.md": "-rw-r--r--",
        "usr/share/doc/chest/docs/PACKAGING.md": "-rw-r--r--",
        "usr/share/chest/demo/hill.quest": "-rw-r--r--", "usr/share/chest/demo/walk.txt": "-rw-r--r--",
        "usr/share/chest/demo/fountain.txt": "-rw-r--r--", "usr/share/chest/demo/waypoints.gpx": "-rw-r--r--",
        "usr/share/doc/chest/examples/mosquitto/hunt.conf": "-rw-r--r--",
        "usr/share/doc/chest/examples/mosquitto/mosquitto.service.d/chest-hunt.conf": "-rw-r--r--",
        "usr/share/doc/chest/examples/game/bern.quest": "-rw-r--r--",
    ]

    /// The names of the one program: relative links to usr/bin/chest, and where each points; and the demo among the
    /// examples (a program must not need /usr/share/doc, Debian policy 12.3: `chest demo` reads /usr/share/chest).
    static let links: [String: String] = [
        "usr/bin/chestd": "chest", "usr/bin/chest-walk": "chest", "usr/libexec/chest/chest-weather": "../../bin/chest",
        "usr/share/doc/chest/examples/quest": "../../../chest/demo",
    ]

    /// A user's environment without Swift: nothing of /opt/swift (or wherever `swift` lives) on PATH.
    static func plainEnvironment(home: String) -> [String: String] {
        [
            "PATH": "/usr/bin:/bin", "HOME": home, "LC_ALL": "C.UTF-8", "TZ": "UTC",
            "XDG_CONFIG_HOME": home + "/config",
            "XDG_DATA_HOME": home + "/data", "MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "80",
        ]
    }

    static func run(
        _ path: String, _ arguments: [String], environment: [String: String] = plainEnvironment(home: "/tmp"),
        directory: String? = nil
    ) throws -> Subprocess.Outcome {
        try Subprocess.run(path, arguments, environment: environment, directory: directory)
    }

    /// `dpkg-deb -c`: each entry's path (without the leading "./"), its mode and owner, and where a link points.
    static func contents(of deb: String) throws -> [String: (mode: String, owner: String, link: String?)] {
        let listing = try run("/usr/bin/dpkg-deb", ["-c", deb])
        #expect(listing.status == 0, "\(listing.stderr)")
        var entries: [String: (mode: String, owner: String, link: String?)] = [:]
        for line in listing.stdout.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count >= 6 else { continue }
            var path = String(words[5])
            if path.hasPrefix("./") { path.removeFirst(2) }
            if path.hasSuffix("/") { path.removeLast() }
            // "lrwxrwxrwx root/root 0 2026-11-28 02:00 ./usr/bin/chestd -> chest"
            let link = words.count >= 8 && words[6] == "->" ? String(words[7]) : nil
            entries[path] = (String(words[0]), String(words[1]), link)
        }
        return entries
    }

    /// The control fields of `dpkg-deb -f`.
    static func field(_ name: String, of deb: String) throws -> String {
        try run("/usr/bin/dpkg-deb", ["-f", deb, name]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The Debian packages that hold the shared libraries `program` asks for itself (its NEEDED entries, found where
    /// ldd finds them; what those libraries load in turn is their packages' business).
    static func packagesLinked(by program: String) throws -> (packages: Set<String>, ldd: String) {
        let dynamic = try run("/usr/bin/readelf", ["-d", "-W", program])
        #expect(dynamic.status == 0, "\(dynamic.stderr)")
        let needed = dynamic.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            line.split(separator: "[").last.map { String($0.prefix { $0 != "]" }) }
        }
        #expect(!needed.isEmpty, "\(program) has no NEEDED entries:\n\(dynamic.stdout)")
        let ldd = try run("/usr/bin/ldd", [program])
        var paths: [String] = []
        for soname in needed {
            // "libgps.so.28 => /lib/…/libgps.so.28 (0x…)", or for the dynamic loader "/lib64/ld-linux-x86-64.so.2 (0x…)".
            let line = ldd.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.hasPrefix(soname + " ") || $0.split(separator: " ").first?.hasSuffix("/" + soname) == true }
            guard let path = line?.split(separator: " ").first(where: { $0.hasPrefix("/") }).map(String.init) else {
                Issue.record("\(program): ldd does not resolve \(soname):\n\(ldd.stdout)")
                continue
            }
            paths.append(path)
        }
        // Files are registered under /lib or /usr/lib depending on the package (merged /usr): ask for both, in one
        // `dpkg -S` (each reads every package's file list); it answers "libgps28:amd64: /lib/…/libgps.so.28".
        let variants = paths.map { $0.hasPrefix("/usr/lib/") ? String($0.dropFirst(4)) : "/usr" + $0 }
        let owners = try run("/usr/bin/dpkg", ["-S"] + paths + variants).stdout.split(separator: "\n")
        var packages: Set<String> = []
        for (path, variant) in zip(paths, variants) {
            guard let line = owners.first(where: { $0.hasSuffix(": " + path) || $0.hasSuffix(": " + variant) }),
                let name = line.split(separator: ":").first
            else {
                Issue.record("\(program): no package holds \(path)")
                continue
            }
            packages.insert(String(name))
        }
        return (packages, ldd.stdout)
    }

    @Test func filesModesAndControlFields() throws {
        let deb = try #require(Self.package)
        let entries = try Self.contents(of: deb)
        for (path, mode) in Self.expected {
            let entry = try #require(entries[path], "\(path) is not in the package")
            #expect(entry.mode == mode, "\(path): \(entry.mode)")
        }
        for (path, entry) in entries {
            #expect(entry.owner == "root/root", "\(path) belongs to \(entry.owner)")
            if entry.mode.hasPrefix("d") { #expect(entry.mode == "drwxr-xr-x", "\(path): \(entry.mode)") }
            if entry.mode.hasPrefix("-") && Self.expected[path] == nil {
                // Anything else is documentation or an example, and executable by nobody.
                #expect(path.hasPrefix("usr/share/doc/chest/"), "unexpected file \(path)")
                #expect(entry.mode == "-rw-r--r--", "\(path): \(entry.mode)")
            }
            // The only links are the program's other names.
            #expect(entry.mode.hasPrefix("l") == (Self.links[path] != nil), "\(path): \(entry.mode)")
        }
        for (path, target) in Self.links {
            let entry = try #require(entries[path], "\(path) is not in the package")
            #expect(
                entry.mode == "lrwxrwxrwx" && entry.link == target,
                "\(path): \(entry.mode) -> \(entry.link ?? "nothing")")
        }
        #expect(entries.keys.allSatisfy { $0 == "" || $0 == "." || $0.hasPrefix("usr") }, "files outside /usr")

        let name = URL(fileURLWithPath: deb).lastPathComponent
        let version = try Self.field("Version", of: deb)
        let architecture = try Self.field("Architecture", of: deb)
        #expect(name == "chest_\(version)_\(architecture).deb")
        #expect(
            version.range(
                of: #"^[0-9]+\.[0-9]+(~git[0-9]{8}\.[0-9a-f]{7}|[0-9A-Za-z.+~]*)$"#, options: .regularExpression)
                != nil,
            "\(version)")
        let machine = try Self.run("/usr/bin/dpkg", ["--print-architecture"]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(architecture == machine)
        #expect(try Self.field("Package", of: deb) == "chest")
        #expect(try Self.field("Recommends", of: deb) == "gpsd")
        #expect(try Self.field("Suggests", of: deb) == "mosquitto, chromium, libjs-leaflet")

        let info = try Self.run("/usr/bin/dpkg-deb", ["-I", deb])
        #expect(info.stdout.contains(" postinst "), "\(info.stdout)")
        // No postrm: with one, dpkg keeps a removed package's record ("rc") until it is purged (issue 59 item 7).
        for unneeded in [" preinst ", " prerm ", " postrm ", " conffiles "] {
            #expect(!info.stdout.contains(unneeded), "\(unneeded) in\n\(info.stdout)")
        }
        // Maintainer scripts may reload udev; none may start, enable or touch a user's service or group.
        let scripts = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chest-deb-control-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: scripts) }
        #expect(try Self.run("/usr/bin/dpkg-deb", ["-e", deb, scripts]).status == 0)
        for script in ["postinst"] {
            let text = try String(contentsOfFile: scripts + "/" + script, encoding: .utf8)
            #expect(text.contains("udevadm control --reload"), "\(script)")
            for forbidden in ["systemctl", "usermod", "adduser", "gpasswd"] {
                #expect(!text.contains(forbidden), "\(script) runs \(forbidden)")
            }
        }
    }

    /// Depends names exactly the packages whose libraries the program links and those of the four it opens on
    /// demand (docs/PACKAGING.md "Libraries loaded on demand"), and it loads nothing of Swift's.
    @Test func dependsCoversWhatTheProgramLinksAndOpens() throws {
        let deb = try #require(Self.package)
        let root = try Self.extract(deb)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let depends = try Self.field("Depends", of: deb)
        let named = Set(
            depends.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).split(separator: " ")[0] }.map(
                String.init))
        // The one program; its other names are links to it (filesModesAndControlFields).
        let (linked, ldd) = try Self.packagesLinked(by: root + "/usr/bin/chest")
        #expect(!ldd.contains("not found"), "usr/bin/chest:\n\(ldd)")
        #expect(
            !ldd.lowercased().contains("swift") && !ldd.contains("libFoundation") && !ldd.contains("libdispatch"),
            "usr/bin/chest loads Swift's runtime:\n\(ldd)")
        for library in ["libc6", "libgps28", "libsodium23", "libutf8proc2"] {
            #expect(linked.contains(library), "\(library) not linked: \(linked.sorted())")
        }
        let onDemand: Set = ["libcurl4", "libxml2", "libmosquitto1", "libmicrohttpd12"]
        #expect(linked.isDisjoint(with: onDemand), "linked, not opened on demand: \(linked.intersection(onDemand))")
        #expect(
            linked.subtracting(named).isEmpty,
            "linked but not in Depends: \(linked.subtracting(named).sorted()); Depends: \(depends)")
        #expect(named.subtracting(linked) == onDemand, "in Depends but neither linked nor opened: \(depends)")
        // A search path of its own ($ORIGIN) would load a library planted beside a copy of the program.
        let dynamic = try Self.run("/usr/bin/readelf", ["-d", "-W", root + "/usr/bin/chest"]).stdout
        #expect(!dynamic.contains("(RUNPATH)") && !dynamic.contains("(RPATH)"), "usr/bin/chest:\n\(dynamic)")
        let exported = try ModuleLinkTests.exportedSymbols(of: root + "/usr/bin/chest")
        #expect(exported.isEmpty, "\(exported.count) exported (\(ModuleLinkTests.standIns(exported).count) stand-ins)")
    }

    static func extract(_ deb: String) throws -> String {
        let root = try Directory.makeTemporary("chest-deb-root", in: "/tmp")
        let outcome = try run("/usr/bin/dpkg-deb", ["-x", deb, root])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return root
    }

    /// The extracted program runs as it is, by each of its names, with only /usr/bin and /bin on PATH; every man page
    /// formats cleanly.
    @Test func extractedProgramsAndPagesWork() throws {
        let deb = try #require(Self.package)
        let root = try Self.extract(deb)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let environment = Self.plainEnvironment(home: root)
        #expect(
            try Self.run("/bin/sh", ["-c", "command -v swift"], environment: environment).status != 0,
            "swift is on PATH=/usr/bin:/bin: this test would not show the package works without it")

        // The package's own version, as its control file says (issue 59 item 7), by both names.
        let packaged = try Self.field("Version", of: deb)
        for name in ["chest", "chestd"] {
            let version = try Self.run(root + "/usr/bin/" + name, ["--version"], environment: environment)
            #expect(
                version.status == 0 && version.stdout == "\(name) \(packaged)\n", "\(version.stdout)\(version.stderr)")
        }
        let help = try Self.run(root + "/usr/bin/chest", ["help"], environment: environment)
        #expect(help.status == 0, "\(help.stderr)")
        for command in ["compose", "import", "watch", "status"] {
            #expect(help.stdout.contains(command), "\(help.stdout)")
        }
        let daemonHelp = try Self.run(root + "/usr/bin/chestd", ["--help"], environment: environment)
        #expect(daemonHelp.status == 0, "\(daemonHelp.stderr)")
        #expect(daemonHelp.stdout.contains("--gpsd"), "\(daemonHelp.stdout)")
        let walk = try Self.run(
            root + "/usr/bin/chest-walk", [root + "/usr/share/chest/demo/walk.txt"],
            environment: environment)
        #expect(walk.status == 0, "\(walk.stderr)")
        #expect(walk.stdout.contains("$GPRMC") && walk.stdout.contains("$GPGGA"))
        // The weather helper loads and speaks: with no request on its standard input it says what it expected.
        let weather = try Self.run(root + "/usr/libexec/chest/chest-weather", [], environment: environment)
        #expect(
            weather.status != 0 && weather.stderr.contains("chest-weather: expected one weather request"),
            "\(weather.stderr)")

        for (page, name) in [
            ("man1/chest.1.gz", "chest"), ("man1/chest-walk.1.gz", "chest-walk"), ("man8/chestd.8.gz", "chestd"),
        ] {
            let path = root + "/usr/share/man/" + page
            let man = try Self.run("/usr/bin/man", ["--warnings", "-l", path], environment: environment)
            #expect(man.status == 0, "\(page): \(man.stderr)")
            #expect(man.stderr.isEmpty, "\(page) warns: \(man.stderr)")
            #expect(
                man.stdout.contains("NAME") && man.stdout.contains("SYNOPSIS")
                    && man.stdout.range(of: "\n +\(name) +- ", options: .regularExpression) != nil,
                "\(page):\n\(man.stdout.prefix(400))")
        }
        // chestd(8) names where the package put its unit and rules, not where `make install` puts them by default.
        let daemonPage = try Self.run(
            "/usr/bin/man", ["-l", root + "/usr/share/man/man8/chestd.8.gz"], environment: environment
        ).stdout
        #expect(
            daemonPage.contains("/usr/lib/systemd/user/chestd.service")
                && daemonPage.contains("/usr/lib/udev/rules.d/60-chest-gps.rules")
                && !daemonPage.contains("/usr/local"),
            "\(daemonPage)")
        // The quests' comments name the files where the package has them.
        let quest = try String(contentsOfFile: root + "/usr/share/chest/demo/hill.quest", encoding: .utf8)
        let comments = quest.split(separator: "\n").filter { $0.hasPrefix("#") }.joined(separator: "\n")
        #expect(
            comments.contains("chest preview /usr/share/chest/demo/hill.quest")
                && comments.contains("chest simulate /usr/share/chest/demo/hill.quest /usr/share/chest/demo/walk.txt")
                && comments.contains("(/usr/share/doc/chest/docs/QUEST.md)") && !comments.contains(" demo/"),
            "\(comments)")
        let game = try String(contentsOfFile: root + "/usr/share/doc/chest/examples/game/bern.quest", encoding: .utf8)
        #expect(game.contains("--quest /usr/share/doc/chest/examples/game/bern.quest"), "\(game.prefix(300))")
        // The demo, in-process, from the files beside the program.
        let demo = try Self.run(root + "/usr/bin/chest", ["demo", "--in-process"], environment: environment)
        #expect(demo.status == 0, "\(demo.stdout)\(demo.stderr)")
        #expect(
            demo.stdout.hasPrefix("== The demo quest \(root)/usr/share/chest/demo/hill.quest")
                && demo.stdout.contains("6 of 6 pages opened."), "\(demo.stdout)")

        let copyright = try String(contentsOfFile: root + "/usr/share/doc/chest/copyright", encoding: .utf8)
        #expect(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"))
        let changelog = try Self.run(
            "/bin/sh", ["-c", "gzip -dc \"$0\"", root + "/usr/share/doc/chest/changelog.gz"], environment: environment)
        #expect(changelog.stdout.hasPrefix("chest (\(try Self.field("Version", of: deb))) "), "\(changelog.stdout)")
    }

    /// As root: `apt-get install ./chest_….deb`, `chest demo` on /usr/bin's programs with no Swift on PATH, then
    /// `apt-get remove` leaves no file of the package behind, and no record of it: a purge has nothing left.
    @Test(.enabled(if: getuid() == 0, "installing the package needs root (CI is root)"))
    func installedPackageRunsTheDemoAndRemoveLeavesNothing() throws {
        let deb = try #require(Self.package)
        let entries = try Self.contents(of: deb)
        let files = entries.filter { !$0.value.mode.hasPrefix("d") }.keys.map { "/" + $0 }.sorted()
        let status = { try Self.run("/usr/bin/dpkg-query", ["-W", "-f=${Status}", "chest"]).stdout }
        // A chest installed by `make install PREFIX=/usr` is someone's own: leave it alone.
        let foreign = files.filter { FileManager.default.fileExists(atPath: $0) }
        let installedBefore = try status() == "install ok installed"
        try #require(
            foreign.isEmpty || installedBefore, "files of the package already exist, not from the package: \(foreign)")

        var apt = Self.plainEnvironment(home: "/root")
        apt["PATH"] = "/usr/sbin:/usr/bin:/sbin:/bin"
        apt["DEBIAN_FRONTEND"] = "noninteractive"
        let aptOptions = ["-y", "-q", "-o", "DPkg::Lock::Timeout=300", "--no-install-recommends"]
        defer { _ = try? Self.run("/usr/bin/apt-get", ["purge"] + aptOptions + ["chest"], environment: apt) }

        let install = try Self.run("/usr/bin/apt-get", ["install"] + aptOptions + [deb], environment: apt)
        try #require(install.status == 0, "\(install.stdout)\n\(install.stderr)")
        #expect(try status() == "install ok installed")
        for file in files { #expect(FileManager.default.fileExists(atPath: file), "\(file) not installed") }

        // `chest demo` (issue 59 item 7): README's walk for a package user, with gpsd in /usr/sbin, not on this PATH,
        // and no Swift and no source tree: the installed demo through gpsfake, a private gpsd and chestd.
        let environment = Self.plainEnvironment(home: "/tmp")
        let installed = try Self.run("/usr/bin/chest", ["--version"], environment: environment)
        #expect(installed.stdout == "chest \(try Self.field("Version", of: deb))\n", "\(installed.stderr)")
        let demo = try Self.run("/usr/bin/timeout", ["200", "/usr/bin/chest", "demo"], environment: environment)
        #expect(demo.status == 0, "\(demo.stdout)\n\(demo.stderr)")
        #expect(
            demo.stdout.hasPrefix(
                "== The demo quest /usr/share/chest/demo/hill.quest along the walk /usr/share/chest/demo/walk.txt, "
                    + "dated now, through gpsfake, a private gpsd and a private chestd"), "\(demo.stdout)")
        #expect(demo.stdout.contains("Replayed ") && demo.stdout.contains("6 of 6 pages opened."), "\(demo.stdout)")

        let remove = try Self.run("/usr/bin/apt-get", ["remove"] + aptOptions + ["chest"], environment: apt)
        #expect(remove.status == 0, "\(remove.stdout)\n\(remove.stderr)")
        // Removed without a trace: no "rc" in dpkg -l (it has no conffiles and no postrm to keep a record for).
        let removed = try status()
        #expect(["unknown ok not-installed", ""].contains(removed), "\(removed)")
        let listed = try Self.run("/usr/bin/dpkg", ["-l"], environment: apt).stdout
        #expect(!listed.split(separator: "\n").contains { $0.hasPrefix("rc  chest ") }, "\(listed)")
        for file in files { #expect(!FileManager.default.fileExists(atPath: file), "\(file) left behind") }
        for directory in ["/usr/libexec/chest", "/usr/share/doc/chest", "/usr/share/chest"] {
            #expect(!FileManager.default.fileExists(atPath: directory), "\(directory) left behind")
        }
        // Nothing left to purge: apt-get no longer knows the package at all (it would say "Unable to locate"), and
        // dpkg finds nothing of it.
        let purge = try Self.run("/usr/bin/dpkg", ["--purge", "chest"], environment: apt)
        #expect(purge.status == 0, "\(purge.stdout)\n\(purge.stderr)")
        let purged = try status()
        #expect(["unknown ok not-installed", ""].contains(purged), "\(purged)")
    }
}
