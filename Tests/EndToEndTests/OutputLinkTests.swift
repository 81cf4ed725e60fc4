import ChestTestSupport
import Foundation
import Glibc
import Testing

/// `-o` through a link another user planted in a shared sticky folder (/tmp's kind) is refused, as the kernel's
/// fs.protected_symlinks would refuse it, whether that setting is on or not; a dangling link asks for `--force`;
/// links of one's own keep working (docs/SECURITY.md "1. Output paths"). The attacks run as root and as another user,
/// with real users of the system (nobody, daemon), so the suite needs root to make them.
@Suite(.realProcesses, .tags(.process), .enabled(if: geteuid() == 0, "planting links as other users needs root"))
struct OutputLinkTests {
    static let nobody = uid_t(65534)
    static let daemonUser = uid_t(1)

    /// A shared folder (mode 1777, root's), a private folder with a file to protect, and a config home per user.
    final class World {
        let root: String
        var shared: String { root + "/shared" }

        init() throws {
            root = try Self.makeDirectory()
            #expect(chmod(root, 0o755) == 0)
            #expect(mkdir(shared, 0o777) == 0 && chmod(shared, 0o1777) == 0)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        private static func makeDirectory() throws -> String {
            var template = Array("/tmp/chest-links-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw Failure(description: "mkdtemp") }
            return String(cString: made)
        }

        /// A folder only `owner` can enter, holding `secret` with `contents`.
        func privateFile(owner: uid_t, named name: String, contents: String) throws -> String {
            let folder = root + "/private-\(owner)-\(name)"
            #expect(mkdir(folder, 0o700) == 0 && chown(folder, owner, owner) == 0)
            let file = folder + "/" + name
            try Data(contents.utf8).write(to: URL(fileURLWithPath: file))
            #expect(chmod(file, 0o600) == 0 && chown(file, owner, owner) == 0)
            return file
        }

        /// A symlink at `shared/name` to `target`, owned by `owner` (lchown: root plants it for that user).
        func plant(_ name: String, to target: String, owner: uid_t) -> String {
            let link = shared + "/" + name
            #expect(symlink(target, link) == 0 && lchown(link, owner, owner) == 0)
            return link
        }

        /// Runs `chest ARGUMENTS` as `user` (root when nil), with a config home of that user's.
        func chest(_ arguments: [String], as user: uid_t? = nil) throws -> Subprocess.Outcome {
            let home = root + "/home-\(user ?? 0)"
            if mkdir(home, 0o700) == 0 { chown(home, user ?? 0, user ?? 0) }
            let environment = [
                "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "XDG_CONFIG_HOME": home, "TZ": "UTC",
                "CHEST_SOCKET": home + "/chestd.sock",
            ]
            let program = ChestHarness.products + "/chest"
            guard let user else { return try Subprocess.run(program, arguments, environment: environment) }
            return try Subprocess.run(
                "/usr/bin/setpriv",
                ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--", program] + arguments,
                environment: environment)
        }

        static func contents(_ path: String) -> String? {
            (try? Data(contentsOf: URL(fileURLWithPath: path))).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    static func compose(_ output: String, force: Bool = true) -> [String] {
        ["compose", "-o", output, "--title", "T", "--page", "p"] + (force ? ["--force"] : [])
    }

    /// Root's `compose -o SHARED/msg.locked --force`, the link nobody's and the file root's only: refused, the file
    /// untouched; the same through a planted link to a folder on the way, and for `export` and `quest from`.
    @Test func rootRefusesAnotherUsersLinkInASharedFolder() throws {
        let world = try World()
        let secret = try world.privateFile(owner: 0, named: "secret", contents: "root's")
        let link = world.plant("msg.locked", to: secret, owner: Self.nobody)
        let refused = try world.chest(Self.compose(link))
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("symlink owned by nobody") && refused.stderr.contains("sticky folder"))
        #expect(World.contents(secret) == "root's")

        let folder = world.plant("folder", to: directoryName(secret), owner: Self.nobody)
        let throughFolder = try world.chest(Self.compose(folder + "/secret"))
        #expect(throughFolder.status == 1 && throughFolder.stderr.contains("folder is a symlink owned by nobody"))
        #expect(World.contents(secret) == "root's")

        let gpx = try world.privateFile(owner: 0, named: "track.gpx", contents: "root's track")
        let exported = try world.chest(["export", "--gpx", "-o", world.plant("track.gpx", to: gpx, owner: Self.nobody)])
        #expect(exported.status == 1 && exported.stderr.contains("symlink owned by nobody"), "\(exported.stderr)")
        #expect(World.contents(gpx) == "root's track")
    }

    /// A dangling link, even one's own, creates its target only with `--force`; one planted by another user never.
    @Test func aDanglingLinkNeedsForce() throws {
        let world = try World()
        let secret = try world.privateFile(owner: 0, named: "secret", contents: "root's")
        let folder = directoryName(secret)

        let planted = world.plant("planted.locked", to: folder + "/planted.locked", owner: Self.nobody)
        let refused = try world.chest(Self.compose(planted))
        #expect(refused.status == 1 && refused.stderr.contains("symlink owned by nobody"), "\(refused.stderr)")
        #expect(access(folder + "/planted.locked", F_OK) != 0, "a planted dangling link made a file in root's folder")

        let mine = world.plant("mine.locked", to: folder + "/mine.locked", owner: 0)
        let unforced = try world.chest(Self.compose(mine, force: false))
        #expect(unforced.status == 1 && unforced.stderr.contains("where no file is yet"), "\(unforced.stderr)")
        #expect(unforced.stderr.contains("--force"))
        #expect(access(folder + "/mine.locked", F_OK) != 0)
        let forced = try world.chest(Self.compose(mine))
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(World.contents(folder + "/mine.locked")?.contains(#""created""#) == true)
        #expect(try OutputTargetTests.kind(of: mine) == S_IFLNK, "the link itself was replaced")
    }

    /// As nobody, a link daemon planted in the shared folder to nobody's own file is refused; nobody's own link,
    /// and a link of the folder's owner (root), are followed; a device and standard output work as before.
    @Test func anotherUserRefusesALinkNeitherTheirsNorTheFolderOwners() throws {
        let world = try World()
        let file = try world.privateFile(owner: Self.nobody, named: "notes.locked", contents: "nobody's")
        let planted = world.plant("planted.locked", to: file, owner: Self.daemonUser)
        let refused = try world.chest(Self.compose(planted), as: Self.nobody)
        #expect(refused.status == 1 && refused.stderr.contains("symlink owned by daemon"), "\(refused.stderr)")
        #expect(World.contents(file) == "nobody's")

        for (name, owner) in [("own.locked", Self.nobody), ("owners.locked", uid_t(0))] {
            let link = world.plant(name, to: file, owner: owner)
            let written = try world.chest(Self.compose(link), as: Self.nobody)
            #expect(written.status == 0, "a link of uid \(owner): \(written.stderr)")
            #expect(World.contents(file)?.contains(#""created""#) == true)
            #expect(try OutputTargetTests.kind(of: link) == S_IFLNK)
        }

        let toNull = world.plant("null.locked", to: "/dev/null", owner: Self.nobody)
        let device = try world.chest(Self.compose(toNull), as: Self.nobody)
        #expect(device.status == 0, "\(device.stderr)")
        #expect(try OutputTargetTests.kind(of: "/dev/null") == S_IFCHR)
        let standardOutput = try world.chest(Self.compose("-"), as: Self.nobody)
        #expect(standardOutput.status == 0 && standardOutput.stdout.contains(#""created""#))
    }
}

/// The directory part of a path.
private func directoryName(_ path: String) -> String {
    String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
}
