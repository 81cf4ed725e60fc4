import ChestTestSupport
import Foundation
import Testing

/// `chest preview`: what the reader will see, from a quest or from the built files; nothing changes.
@Suite(.realProcesses, .tags(.process)) struct PreviewTests {
    @Test func showsPagesLocksAndProtectionReadOnly() throws {
        let world = ChestHarness()
        let quest = world.root + "/quest"
        try FileManager.default.copyItem(atPath: GPSLogs.packageRoot.path + "/demo/quest", toPath: quest)
        let preview = try world.chest(["preview", quest + "/hill.quest"])
        #expect(preview.status == 0, "\(preview.stderr)")
        for expected in [
            "Preview, read-only: nothing is opened and no chest changes.",
            "The hill walk — from The organiser",
            "Page 1 — open from the start",
            "    location: within 30 m of 47.3769, 8.5417",
            "      protection: sealed: the point is inside the page's ciphertext, its key derived from the place's cell; the file says only the search area (docs/FORMAT.md \"Format 3\")",
            "    pin: the right PIN",
            "      protection: sealed: the PIN is part of the page's key; no hash is stored",
            "  text (sealed: the file does not give it away; format 5):",
            "  text (guarded only: whoever has the file can decode it; format 5):",
            "    after: page 2 of message walk",
            "    time: from 2026-06-01 09:00 GMT",
            "  │ The trees are next.",
        ] {
            #expect(preview.stdout.contains(expected + "\n"), "\(expected)\n\(preview.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: quest + "/hill.quest.ids"))
        #expect(
            try world.chest([
                "compose", "--seal-cost", "interactive", "--quest", quest + "/hill.quest", "-o", world.root + "/out",
            ]).status == 0)
        let files = try world.chest(["preview", world.root + "/out/walk.locked", world.root + "/out/bonus.locked"])
        #expect(files.status == 0)
        #expect(files.stdout.contains("sealed; the signature matches"))
        #expect(files.stdout.contains("    after: page 4 of message walk.locked\n"), "\(files.stdout)")
        #expect(
            try world.chest(["preview", world.root + "/nothing.quest"]).stderr.hasPrefix("chest: cannot read the quest")
        )
    }

    /// Issue 32: preview lists the files a page carries and words guarded and sealed text as compose does; a quest
    /// or a track that is not there is named with why, in chest's words; a PIN no lock can have is a usage error.
    @Test func listsAttachmentsSpeaksAsComposeAndNamesAMissingFileWithWhy() throws {
        let world = ChestHarness()
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 2_000))
            .write(to: URL(fileURLWithPath: world.root + "/map.png"))
        try """
        message: carry
        title: Carried
        page: A map for the way.
          lock: pin=4821
        attach: map.png
        page: Anyone with the file can read this.
          lock: time=2020-01-01T00:00:00Z

        """.write(toFile: world.root + "/carry.quest", atomically: true, encoding: .utf8)
        let preview = try world.chest(["preview", world.root + "/carry.quest"])
        #expect(preview.status == 0, "\(preview.stderr)")
        for expected in [
            "  text (sealed: the file does not give it away; format 5):",
            "  attached: map.png · image/png · 2.0 KB",
            "  text (guarded only: whoever has the file can decode it; format 5):",
        ] {
            #expect(preview.stdout.contains(expected + "\n"), "\(expected)\n\(preview.stdout)")
        }
        #expect(!preview.stdout.contains("sealed in the file"))
        let built = try world.chest([
            "compose", "--seal-cost", "interactive", "--quest", world.root + "/carry.quest", "-o", world.root + "/out",
        ])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(
            built.stdout.contains("guarded only: whoever has the file can decode it")
                || built.stderr.contains("guarded only: whoever has the file can decode it"))
        let file = try world.chest(["preview", world.root + "/out/carry.locked"])
        #expect(file.stdout.contains("  attached: files of "), "\(file.stdout)")

        let missing = try world.chest(["simulate", world.root + "/nowhere.quest", world.root + "/walk.gpx"])
        #expect(missing.status == 1)
        #expect(
            missing.stderr
                == "chest: cannot read the quest \(world.root)/nowhere.quest: there is no such file; check the path\n",
            "\(missing.stderr)")
        let track = try world.chest(["simulate", world.root + "/carry.quest", world.root + "/walk.gpx"])
        #expect(
            track.stderr
                == "chest: cannot read the track \(world.root)/walk.gpx: there is no such file; check the path\n",
            "\(track.stderr)")

        let pin = try world.chest(["pin", "0123abcd", "12"])
        #expect(pin.status == 64, "\(pin)")
        #expect(pin.stderr.contains("a PIN is 4 to 12 digits, such as 4821"), "\(pin.stderr)")
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
        let warnings = preview.stdout.split(separator: "\n").filter {
            $0.contains("warning: the reader gets no direction")
        }
        #expect(warnings.count == 1, "\(preview.stdout)")
        let blind = preview.stdout.range(of: "Somewhere — from")!
        let guided = preview.stdout.range(of: "Guided — from")!
        #expect(preview.stdout[blind.upperBound..<guided.lowerBound].contains("warning: the reader gets no direction"))
        #expect(preview.stdout.contains("    location: \u{201C}Sé\u{201D}: within 40 m"), "\(preview.stdout)")
        let demo = try world.chest(["preview", GPSLogs.packageRoot.path + "/demo/quest/hill.quest"])
        #expect(!demo.stdout.contains("warning:"))
    }
}
