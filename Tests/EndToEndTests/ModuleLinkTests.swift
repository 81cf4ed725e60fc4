import ChestTestSupport
import Foundation
import Testing

/// Each C library is linked only by the module that needs it: the command line never loads libgps, so a laptop
/// without gpsd's client library can still compose and read messages. chestd, which reads gpsd, does.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(1)))
struct ModuleLinkTests {
    @Test func chestDoesNotLinkLibgps() throws {
        let libraries = try Self.sharedLibraries(of: ChestHarness.products + "/chest")
        #expect(!libraries.contains { $0.hasPrefix("libgps.") }, "\(libraries)")
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
