import ChestArguments
import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Testing

@testable import ChestCLI

/// Issue 59.7, the package user's way, in what the commands say of themselves: compose's `--quest` line names every
/// option that goes with it, map says it writes PNG too, a development build says it is one, and `chest demo` finds
/// its files beside the program.
@Suite struct PackageWordsTests {
    @Test func composesQuestLineNamesEveryOptionThatGoesWithIt() throws {
        // The usage, before the first empty line, wraps to the terminal: read it as one line of words.
        let help = HelpText.help(for: ComposeCommand.self, path: ["chest", "compose"])
        let usage = help.components(separatedBy: "\n\n")[0].split(whereSeparator: \.isWhitespace)
            .joined(separator: " ")
        let start = try #require(usage.range(of: "chest compose --quest QUEST"), "\(help)")
        let line = usage[start.lowerBound...]
        // Every option QuestOptions reads, or compose hands it.
        for option in [
            "-o DIR|FILE", "--keep-ids", "--force", "--yes", "--hunt FILE", "--format N", "--seal-cost LEVEL",
            "--search-area", "--radius", "--in-order", "--any-order", "--lang",
        ] {
            #expect(line.contains(option), "\(option) missing from: \(line)")
        }
    }

    @Test func mapSaysItWritesPNGToo() {
        let help = HelpText.help(for: MapCommand.self, path: ["chest", "map"])
        #expect(MapCommand.abstract.contains("PNG"), "\(MapCommand.abstract)")
        #expect(help.contains("-o FILE.svg|FILE.png"), "\(help)")
    }

    @Test func aDevelopmentBuildSaysItIsOne() {
        // The slot as the compiler wrote it, blank: no package wrote a version into this build.
        #expect(ChestVersion.packaged == nil && ChestVersion.string == ChestVersion.source)
        #expect(ChestVersion.described == ChestVersion.source + " (development build)")
        // What scripts/deb.sh writes over the blank: the version, padded with spaces.
        let written: StaticString = "@chest-package-version:0.1~git20261129.039d9bd                           "
        #expect(ChestVersion.read(written) == "0.1~git20261129.039d9bd")
        #expect(ChestVersion.slot.utf8CodeUnitCount == "@chest-package-version:".utf8.count + 64)
    }

    @Test func theDemoIsFoundBesideTheProgramOrInTheSourceTree() throws {
        let looked = DemoCommand.candidates(executable: "/usr/bin/chest")
        #expect(
            looked.first
                == .init(
                    quest: "/usr/bin/../share/chest/demo/hill.quest", walk: "/usr/bin/../share/chest/demo/walk.txt"))
        #expect(
            looked.contains(.init(quest: "/usr/share/chest/demo/hill.quest", walk: "/usr/share/chest/demo/walk.txt")))
        // This test runs from .build/TRIPLE/debug of the source tree: its demo/, unless a package installed one.
        let found = try DemoCommand.files(nil)
        let root = GPSLogs.packageRoot.path
        #expect(
            found == .init(quest: root + "/demo/quest/hill.quest", walk: root + "/demo/walk.txt")
                || found == .init(quest: "/usr/share/chest/demo/hill.quest", walk: "/usr/share/chest/demo/walk.txt"),
            "\(found)")
        #expect(
            try DemoCommand.files(root + "/demo")
                == .init(quest: root + "/demo/quest/hill.quest", walk: root + "/demo/walk.txt"))
        #expect(throws: ChestError.self) { try DemoCommand.files("/nonexistent") }
    }
}
