import ChestTestSupport
import Foundation
import Testing

/// The libFuzzer harnesses of Fuzz/ are built outside the package (`make fuzz`), so no build of the package sees
/// them: twice a change of the sources left them unable to compile, and the fuzz script globbed a folder that had
/// become folders. This typechecks all four against the sources as the script gathers them.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(5)))
struct FuzzHarnessTests {
    @Test func theFuzzHarnessesCompileAgainstTheSources() throws {
        let root = GPSLogs.packageRoot.path
        let check = try Subprocess.run(
            "/bin/bash", [root + "/scripts/fuzz.sh", "typecheck"], environment: ProcessInfo.processInfo.environment)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(!check.stdout.contains("error:") && !check.stderr.contains("error:"), "\(check.stdout)\(check.stderr)")
    }
}
