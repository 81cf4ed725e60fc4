import ChestTestSupport
import Foundation
import Testing

/// `chest preview`: what the reader will see, from a quest or from the built files; nothing changes.
@Suite struct PreviewTests {
    @Test func showsPagesLocksAndProtectionReadOnly() throws {
        let world = ChestHarness()
        let quest = world.root + "/quest"
        try FileManager.default.copyItem(atPath: GPSLogs.packageRoot.path + "/demo/quest", toPath: quest)
        let preview = try world.chest(["preview", quest + "/hill.quest"])
        #expect(preview.status == 0, "\(preview.stderr)")
        for expected in ["Preview, read-only: nothing is opened and no chest changes.",
                         "The hill walk — from The organiser",
                         "Page 1 — open from the start",
                         "    location: within 30 m of 47.3769, 8.5417",
                         "      protection: sealed: the point is inside the page's ciphertext, its key derived from the place's cell; the file says only the search area (docs/FORMAT.md \"Format 3\")",
                         "    pin: the right PIN",
                         "      protection: sealed: the PIN is part of the page's key; no hash is stored",
                         "  text (sealed in the file until the page opens; format 3):",
                         "    after: page 2 of message walk",
                         "    time: from 2026-06-01 09:00 GMT",
                         "  │ The trees are next."] {
            #expect(preview.stdout.contains(expected + "\n"), "\(expected)\n\(preview.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: quest + "/hill.quest.ids"))
        #expect(try world.chest(["compose", "--seal-cost", "interactive", "--quest", quest + "/hill.quest", "-o", world.root + "/out"]).status == 0)
        let files = try world.chest(["preview", world.root + "/out/walk.locked", world.root + "/out/bonus.locked"])
        #expect(files.status == 0)
        #expect(files.stdout.contains("sealed; the signature matches"))
        #expect(files.stdout.contains("    after: page 4 of message walk.locked\n"), "\(files.stdout)")
        #expect(try world.chest(["preview", world.root + "/nothing.quest"]).stderr.hasPrefix("chest: cannot read the quest"))
    }

    /// Issue 25: preview warns when a sealed place is the first thing a reader must find with nothing to go by, and
    /// not when an earlier page, a chain or ,visible gives direction (the demo quest stays quiet).
    @Test func warnsWhenASealedPlaceLeavesTheReaderWithoutDirection() throws {
        let world = ChestHarness()
        try """
            message: blind
            title: Somewhere
            page: You found it.
              lock: location=38.7098,-9.1330/40m
            message: guided
            title: Guided
            page: You found it too.
              lock: location=38.7098,-9.1330/40m,visible=Sé
            message: chained
            title: After the first
            after: blind#1
            page: And this.
              lock: location=38.7139,-9.1334/40m
            """.write(toFile: world.root + "/lisbon.quest", atomically: true, encoding: .utf8)
        let preview = try world.chest(["preview", world.root + "/lisbon.quest"])
        #expect(preview.status == 0, "\(preview.stderr)")
        let warnings = preview.stdout.split(separator: "\n").filter { $0.contains("warning: the reader gets no direction") }
        #expect(warnings.count == 1, "\(preview.stdout)")
        let blind = preview.stdout.range(of: "Somewhere — from")!, guided = preview.stdout.range(of: "Guided — from")!
        #expect(preview.stdout[blind.upperBound..<guided.lowerBound].contains("warning: the reader gets no direction"))
        #expect(preview.stdout.contains("    location: \u{201C}Sé\u{201D}: within 40 m"), "\(preview.stdout)")
        let demo = try world.chest(["preview", GPSLogs.packageRoot.path + "/demo/quest/hill.quest"])
        #expect(!demo.stdout.contains("warning:"))
    }
}
