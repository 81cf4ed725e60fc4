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
}
