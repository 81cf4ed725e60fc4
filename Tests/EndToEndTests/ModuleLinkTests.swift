import ChestTestSupport
import Foundation
import Testing

/// chest, chestd, chest-walk and chest-weather are one program (Sources/chest/main.swift). It links the C libraries
/// chestd needs (libgps, which it reads gpsd through, libsodium, libutf8proc); the four only some commands use
/// (libcurl, libxml2, libmosquitto, libmicrohttpd) it opens at their first call, so that chestd and every command
/// start without them and the libraries they bring (docs/PACKAGING.md "Libraries loaded on demand"). Inside it each
/// C library is still imported by one module only (docs/ARCHITECTURE.md), which the compiler keeps.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(1)))
struct ModuleLinkTests {
    @Test func theNamesAreLinksToTheOneProgram() throws {
        for name in ChestHarness.programNames {
            let target = try FileManager.default.destinationOfSymbolicLink(atPath: ChestHarness.products + "/" + name)
            #expect(target == "chest", "\(name) -> \(target)")
        }
    }

    @Test func chestdLinksLibgps() throws {
        let libraries = try Self.sharedLibraries(of: ChestHarness.products + "/chestd")
        #expect(libraries.contains { $0.hasPrefix("libgps.") }, "\(libraries)")
    }

    @Test func theLibrariesOfSomeCommandsAreNotLinked() throws {
        let libraries = try Self.sharedLibraries(of: ChestHarness.products + "/chest")
        for library in Self.onDemand {
            #expect(!libraries.contains { $0.hasPrefix(library) }, "\(library) in \(libraries)")
        }
        // Nor anything that only they bring.
        #expect(!libraries.contains { $0.hasPrefix("libgnutls.") || $0.hasPrefix("libcrypto.") }, "\(libraries)")
    }

    /// A chestd with no hunt maps none of them, and a weather request, which needs libcurl, works in the helper
    /// chestd starts (WeatherUnlockTests), so each is opened where it is used.
    @Test func chestdWithoutAHuntMapsNoneOfThem() throws {
        let world = ChestHarness()
        defer { world.stopDaemon() }
        try world.startDaemon()
        let pid = try #require(world.daemon)
        try world.chest(["status"])
        let maps = ChestHarness.procFile("/proc/\(pid)/maps")
        #expect(maps.contains("libgps.so"), "chestd reads gpsd through libgps")
        for library in Self.onDemand {
            #expect(!maps.contains("/" + library), "chestd mapped \(library)")
        }
    }

    /// The program exports no symbol (Sources/chest/exports.map): a library it opens could otherwise bind its calls to
    /// its own functions to the program's functions of the same name (docs/PACKAGING.md "Libraries loaded on
    /// demand"). PackageTests checks the package's program, whose static Swift runtime asks for every symbol exported.
    @Test func theProgramExportsNoSymbol() throws {
        let exported = try Self.exportedSymbols(of: ChestHarness.products + "/chest")
        #expect(
            exported.isEmpty,
            "\(exported.count) exported, \(Self.standIns(exported).count) of them the libraries' functions: \(exported.prefix(20))"
        )
    }

    /// The names `nm -D --defined-only` lists for `binary`.
    static func exportedSymbols(of binary: String) throws -> [String] {
        let outcome = try Subprocess.run(
            "/usr/bin/nm", ["-D", "--defined-only", binary], environment: ProcessInfo.processInfo.environment)
        try #require(outcome.status == 0 || outcome.stderr.contains("no symbols"), "nm \(binary): \(outcome.stderr)")
        return outcome.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
    }

    /// Those of `symbols` named as the functions of the libraries opened on demand.
    static func standIns(_ symbols: [String]) -> [String] {
        let prefixes = [
            "curl_", "chest_curl_", "MHD_", "chest_mhd_", "mosquitto_", "xml", "html", "chest_xml", "chest_library_",
        ]
        return symbols.filter { symbol in prefixes.contains { symbol.hasPrefix($0) } }
    }

    /// The libraries the program opens at their first use.
    static let onDemand = ["libcurl.so", "libxml2.so", "libmosquitto.so", "libmicrohttpd.so"]

    /// The names `ldd` lists for `binary`, such as "libgps.so.28".
    static func sharedLibraries(of binary: String) throws -> [String] {
        let outcome = try Subprocess.run("/usr/bin/ldd", [binary], environment: ProcessInfo.processInfo.environment)
        try #require(outcome.status == 0, "ldd \(binary): \(outcome.stderr)")
        return outcome.stdout.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: \.isWhitespace).first.map(String.init)
        }
    }
}
