import ChestCore
import ChestIO
import ChestSeal
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// Files on pages (docs/FORMAT.md "Attachments", README "Pictures and files on pages") with the built chest and
/// chestd: sealed with their page, listed and saved once it opens, shown in the desktop notification.
@Suite(.realProcesses, .tags(.process, .gpsd), .timeLimit(.minutes(4)))
struct AttachmentTests {
    /// A PNG by its signature, then random bytes: found in no file by chance.
    static func picture(_ count: Int = 150_000) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Sealer.randomBytes(count)
    }

    /// Whether `haystack` holds any 24-byte run of `bytes`, as they are or in base64 at any of the three alignments.
    static func contains(_ haystack: [UInt8], anyOf bytes: [UInt8]) -> Bool {
        let text = String(decoding: haystack, as: UTF8.self)
        for start in stride(from: 16, to: bytes.count - 40, by: max(1, bytes.count / 7)) {
            let run = Array(bytes[start..<start + 24])
            if haystack.count >= run.count,
                (0...haystack.count - run.count).contains(where: { haystack[$0..<$0 + run.count].elementsEqual(run) })
            {
                return true
            }
            for shift in 0..<3 {
                let encoded = Data(bytes[(start + shift)..<(start + shift + 30)]).base64EncodedString()
                if text.contains(String(encoded.dropFirst(4).prefix(28))) { return true }
            }
        }
        return false
    }

    static func bytes(_ path: String) -> [UInt8] {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
    }

    /// compose at the interactive cost, as SealedPageTests does; prints the ID.
    func compose(_ world: ChestHarness, _ file: String, _ arguments: [String]) throws -> String {
        try SealedPageTests().compose(world, file, arguments)
    }

    @Test func aPINPageKeepsItsPictureSealedThenSavesItByteForByteAndNotifiesWithIt() throws {
        let world = ChestHarness()
        let picture = Self.picture()
        let notes = Array("Dig forty paces north of the clock tower.\n".utf8)
        try Data(picture).write(to: URL(fileURLWithPath: world.root + "/secret-oak-photo.png"))
        try Data(notes).write(to: URL(fileURLWithPath: world.root + "/where-to-dig.txt"))
        // A notifier that keeps its arguments and a copy of the picture it was given.
        let bin = try world.program(
            "notify-send",
            """
            printf '%s\\n' "$@" > '\(world.root)/notified.args'
            for a in "$@"; do case "$a" in --icon=/*) cp "${a#--icon=}" '\(world.root)/notified.png';; esac; done
            """)
        world.extraEnvironment = [
            "DISPLAY": ":99", "PATH": bin + ":/usr/bin:/bin", "XDG_RUNTIME_DIR": world.root + "/xdg-run",
        ]

        let id = try compose(
            world, "clock.locked",
            [
                "--page", "behind the clock", "--attach", "secret-oak-photo.png",
                "--attach", "where-to-dig.txt", "--lock", "pin=482159",
            ])
        let file = Self.bytes(world.root + "/clock.locked")
        #expect(!String(decoding: file, as: UTF8.self).contains("secret-oak-photo"))
        #expect(!String(decoding: file, as: UTF8.self).contains("where-to-dig"))
        #expect(!Self.contains(file, anyOf: picture))
        #expect(!String(decoding: file, as: UTF8.self).contains("forty paces"))

        try world.startDaemon()
        #expect(try world.chest(["import", "clock.locked"]).status == 0)
        let locked = try world.chest(["read", id, "--save", world.root + "/early"])
        #expect(locked.stderr.contains("no attachments to save"), "\(locked.stderr)")
        #expect(!FileManager.default.fileExists(atPath: world.root + "/early"))

        let opened = try world.chest(["pin", id, "482159"])
        #expect(opened.stdout.contains("PIN accepted"), "\(opened.stderr)")
        let read = try world.chest(["read", id])
        #expect(read.stdout.contains("attached: secret-oak-photo.png · image/png · 150.0 KB"), "\(read.stdout)")
        #expect(
            read.stdout.contains("attached: where-to-dig.txt · application/octet-stream · 42 bytes"), "\(read.stdout)")
        let json =
            JSON.object(try world.chest(["read", "--json", id]).stdout)
        let page = (json?["pages"]?.array)?.first
        let listed = page?["attachments"]?.array
        #expect(listed?.first?["name"]?.string == "secret-oak-photo.png")
        #expect(listed?.first?["type"]?.string == "image/png")
        #expect(listed?.first?["size"]?.int == picture.count)
        #expect(page?["attachmentsKey"] == nil)

        let saved = try world.chest(["read", id, "--save", world.root + "/found"])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(Self.bytes(world.root + "/found/secret-oak-photo.png") == picture)
        #expect(Self.bytes(world.root + "/found/where-to-dig.txt") == notes)
        // Saved again: a new name, the first file untouched.
        let again = try world.chest(["read", id, "--save", world.root + "/found"])
        #expect(again.stderr.contains("secret-oak-photo-2.png (secret-oak-photo.png was taken)"), "\(again.stderr)")
        #expect(Self.bytes(world.root + "/found/secret-oak-photo-2.png") == picture)
        #expect(Self.bytes(world.root + "/found/secret-oak-photo.png") == picture)

        try world.waitUntil("the notification went out with the picture", timeout: 15) {
            FileManager.default.fileExists(atPath: world.root + "/notified.png")
        }
        #expect(Self.bytes(world.root + "/notified.png") == picture)
        let arguments = (try? String(contentsOfFile: world.root + "/notified.args", encoding: .utf8)) ?? ""
        let cached = world.root + "/xdg-run/chest/pictures/\(id)-1.png"
        #expect(arguments.contains("--hint=string:image-path:\(cached)"), "\(arguments)")
        var info = stat()
        #expect(stat(cached, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func aSealedPlaceKeepsItsFileUntilTheWalkOpensItAndWatchListsIt() throws {
        let world = ChestHarness()
        let first = GPSUnlockTests.first
        let picture = Self.picture(40_000)
        try Data(picture).write(to: URL(fileURLWithPath: world.root + "/stone.png"))
        let id = try compose(
            world, "stone.locked",
            [
                "--page", "Found the first stone", "--attach", "stone.png",
                "--lock", "location=\(first.latitude),\(first.longitude)/20m",
            ])
        let file = Self.bytes(world.root + "/stone.locked")
        #expect(!String(decoding: file, as: UTF8.self).contains("stone.png"))
        #expect(!Self.contains(file, anyOf: picture))
        try world.startDaemon()
        #expect(try world.chest(["import", "stone.locked"]).status == 0)
        #expect(world.stopDaemon() == 0)
        let fake = try GPSFake(walk: GPSUnlockTests.walk(), delay: 0.01)
        defer { fake.stop() }
        world.gpsd = "127.0.0.1:\(fake.port)"
        try world.startDaemon()
        let events = world.root + "/events.json"
        // Whether it connects before or after the page opens, watch hears the unlock: an undelivered one goes to the
        // next watcher.
        let watcher = try TestProcess(
            ChestHarness.products + "/chest",
            [
                "watch", "--json", "--count", "1", "--events", "unlocked",
                "--timeout", "60",
            ],
            wholeEnvironment: world.environment(), stdout: events, stderr: world.root + "/watch.err")
        try world.waitUntil("the sealed page opens", timeout: 60) { try world.states()["stone.locked"] == "open" }
        #expect(watcher.wait() == 0)
        let line = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
        #expect(
            line.contains(#""attachments":[{"name":"stone.png","size":\#(picture.count),"type":"image\/png"}]"#)
                || line.contains(#""attachments":[{"name":"stone.png","size":\#(picture.count),"type":"image/png"}]"#),
            "\(line)")
        #expect(try world.chest(["read", id, "--save", world.root + "/found"]).status == 0)
        #expect(Self.bytes(world.root + "/found/stone.png") == picture)
    }

    /// A sender's file names are theirs to choose: saved, they stay inside DIR and carry no control characters.
    @Test func hostileNamesAreCleanedAndStayInTheDirectory() throws {
        let world = ChestHarness()
        let factory = try MessageFactory(configDirectory: world.root + "/config-mallory")
        let id = MessageID(bytes: Sealer.randomBytes(16))
        let files = [
            AttachedFile(name: "../../escaped\u{1B}[31m.png", bytes: Self.picture(100)),
            AttachedFile(name: ".hidden", bytes: Array("dot".utf8)), AttachedFile(name: "..", bytes: Array("up".utf8)),
        ]
        let page = PageSealer.sealed(
            text: "open", setA: .init(locks: []), setB: .init(locks: []), id: id, page: 1, files: files
        ).page
        let message = Sealer.seal(
            Message(id: id, title: "names", from: "Mallory", created: Date(), pages: [page]), with: factory.identity)
        try MessageFile.encode(message).write(to: URL(fileURLWithPath: world.root + "/names.locked"))
        try world.startDaemon()
        #expect(try world.chest(["import", "names.locked"]).status == 0)
        try world.waitUntil("the open page is open", timeout: 10) { try world.states()["names"] == "open" }
        let read = try world.chest(["read", id.rawValue])
        #expect(!read.stdout.contains("\u{1B}[31m"), "\(read.stdout)")
        let directory = world.root + "/a/b"
        #expect(try world.chest(["read", id.rawValue, "--save", directory]).status == 0)
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: directory)) == [
                "_.._escaped[31m.png", "hidden", "attachment",
            ])
        #expect(!FileManager.default.fileExists(atPath: world.root + "/escaped\u{1B}[31m.png"))
        #expect(Self.bytes(directory + "/attachment") == Array("up".utf8))
    }

    @Test func moreThanEightMiBIsRefusedNamingTheFileAndTheSizes() throws {
        let world = ChestHarness()
        for (name, size) in [("a.bin", 5 << 20), ("b.bin", 4 << 20), ("huge.bin", 9 << 20)] {
            #expect(creat(world.root + "/" + name, 0o600) >= 0)
            #expect(truncate(world.root + "/" + name, off_t(size)) == 0)
        }
        let two = try world.chest(
            [
                "compose", "-o", "two.locked", "--title", "t", "--page", "one", "--attach", "a.bin",
                "--page", "two", "--attach", "b.bin",
            ], user: "alice")
        #expect(two.status != 0)
        #expect(
            two.stderr.contains(
                "page 2: the attachment b.bin is 4.2 MB (4194304 bytes); with the 5.2 MB attached before it that comes to 9437184 bytes, over the 8 MiB (8388608 bytes) a message carries"
            ), "\(two.stderr)")
        #expect(!FileManager.default.fileExists(atPath: world.root + "/two.locked"))
        let huge = try world.chest(
            ["compose", "-o", "huge.locked", "--title", "t", "--page", "one", "--attach", "huge.bin"], user: "alice")
        #expect(
            huge.stderr.contains("the attachment huge.bin is 9.4 MB (9437184 bytes), over the 8 MiB (8388608 bytes)"),
            "\(huge.stderr)")
        let old = try world.chest(
            ["compose", "--format", "1", "-o", "f1.locked", "--title", "t", "--page", "one", "--attach", "a.bin"],
            user: "alice")
        #expect(old.stderr.contains("needs format 2 or later"), "\(old.stderr)")
        let early = try world.chest(
            ["compose", "-o", "e.locked", "--title", "t", "--attach", "a.bin", "--page", "one"], user: "alice")
        #expect(early.stderr.contains("--attach a.bin comes before any --page"), "\(early.stderr)")
    }

    @Test func aQuestAttachesFilesNextToItAndNamesTheLineOfAMissingOne() throws {
        let world = ChestHarness()
        let quest = world.root + "/quest"
        try FileManager.default.createDirectory(atPath: quest + "/pictures", withIntermediateDirectories: true)
        let picture = Self.picture(5000)
        try Data(picture).write(to: URL(fileURLWithPath: quest + "/pictures/map.png"))
        try """
        message: start
        title: The start
        page: Open from the start
        attach: pictures/map.png
        """.write(toFile: quest + "/hunt.quest", atomically: true, encoding: .utf8)
        let built = try world.chest(
            ["compose", "--quest", quest + "/hunt.quest", "-o", world.root + "/out"], user: "alice")
        #expect(built.status == 0, "\(built.stderr)")
        #expect(
            built.stderr.contains("page 1 carries 1 file, sealed with it: map.png (image/png, 5.0 KB)"),
            "\(built.stderr)")
        try world.startDaemon()
        #expect(try world.chest(["import", world.root + "/out/start.locked"]).status == 0)
        try world.waitUntil("the page is open", timeout: 10) { try world.states()["The start"] == "open" }
        let id = try #require(try world.list().first?["id"]?.string)
        #expect(try world.chest(["read", id, "--save", world.root + "/found"]).status == 0)
        #expect(Self.bytes(world.root + "/found/map.png") == picture)

        try """
        message: start
        title: The start
        page: Open from the start
        attach: pictures/nowhere.png
        lock: time=someday
        """.write(toFile: quest + "/broken.quest", atomically: true, encoding: .utf8)
        let broken = try world.chest(
            ["compose", "--quest", quest + "/broken.quest", "-o", world.root + "/out2"], user: "alice")
        #expect(broken.status != 0)
        // Reported with the quest's other mistakes, in one run.
        #expect(
            broken.stderr.contains(
                "broken.quest:4: attach: pictures/nowhere.png: there is no such file next to the quest"),
            "\(broken.stderr)")
        #expect(broken.stderr.contains("broken.quest:5: lock:"), "\(broken.stderr)")
    }
}
