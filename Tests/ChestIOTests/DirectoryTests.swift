import ChestIO
import Foundation
import Glibc
import Testing

struct DirectoryTests {
    @Test func aTemporaryDirectoryIsNewAndPrivateAndAMissingParentIsNamed() throws {
        let parent = try Directory.makeTemporary("chest-directory-test")
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let first = try Directory.makeTemporary("made", in: parent)
        let second = try Directory.makeTemporary("made", in: parent)
        #expect(first != second && first.hasPrefix(parent + "/made-") && first.count == (parent + "/made-XXXXXX").count)
        var info = stat()
        #expect(stat(first, &info) == 0 && info.st_mode & 0o777 == 0o700 && Directory.isDirectory(second))
        #expect(throws: SystemCallError("mkdtemp", path: parent + "/missing", errno: Errno(ENOENT))) {
            try Directory.makeTemporary("made", in: parent + "/missing")
        }
    }
}
