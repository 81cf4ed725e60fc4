import ChestTestSupport
import Foundation
import Testing

/// chest, chestd, chest-walk and chest-weather are one program (Sources/chest/main.swift), so it links every C
/// library a module of it needs: libgps, which chestd reads gpsd through, among them. Inside it each C library is
/// still imported by one module only (docs/ARCHITECTURE.md), which the compiler keeps.
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

    /// The names `ldd` lists for `binary`, such as "libgps.so.28".
    static func sharedLibraries(of binary: String) throws -> [String] {
        let outcome = try Subprocess.run("/usr/bin/ldd", [binary], environment: ProcessInfo.processInfo.environment)
        try #require(outcome.status == 0, "ldd \(binary): \(outcome.stderr)")
        return outcome.stdout.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: \.isWhitespace).first.map(String.init)
        }
    }
}
