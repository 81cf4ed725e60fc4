import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// What `MessageFileReader` refuses before it reads, and that nothing it meets makes it block.
@Suite struct MessageFileReaderTests {
    let directory: String

    init() throws {
        directory = try makeTemporaryDirectory("chest-reader").path
    }

    @Test func aRegularFileIsReadWhole() throws {
        let path = directory + "/a.locked"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try MessageFileReader.read(path: path) == Data("hello".utf8))
    }

    @Test func symlinksFIFOsDirectoriesAndLargeFilesAreRefused() throws {
        let target = directory + "/target.locked"
        try Data("x".utf8).write(to: URL(fileURLWithPath: target))
        symlink(target, directory + "/link.locked")
        mkfifo(directory + "/pipe.locked", 0o600)
        mkdir(directory + "/dir.locked", 0o700)
        let large = directory + "/large.locked"
        try Data(count: MessageFile.fileLimit + 1).write(to: URL(fileURLWithPath: large))
        func refusal(_ name: String) -> MessageFileReader.ReadError? {
            do {
                _ = try MessageFileReader.read(path: directory + "/" + name)
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal("link.locked") == .symbolicLink)
        #expect(refusal("pipe.locked") == .fifo)
        #expect(refusal("dir.locked") == .directory)
        #expect(refusal("large.locked") == .tooLarge(size: MessageFile.fileLimit + 1))
        #expect(refusal("missing.locked") == .unreadable(.noSuchFile))
        #expect(refusal("link.locked")?.description == "it is a symbolic link; copy the file itself into the chest")
        #expect(
            refusal("large.locked")?.description.hasPrefix("the file is \(MessageFile.fileLimit + 1) bytes") == true)
    }
}
