import ChestCore
import ChestIO
import ChestSeal
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// Staging and setting aside never replace a file already there: nothing a sender drops is lost to a name clash.
@Suite struct ChestStoreTests {
    let store: ChestStore

    init() throws {
        store = ChestStore(root: try makeTemporaryDirectory("chest-store").path + "/chest")
        try store.prepare()
    }

    func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func aMessageStoredLongAgoIsKeptForUndeleteAndFoundAgainAfterARestart() throws {
        let id = try #require(MessageID("0123456789abcdef0123456789abcdef"))
        let identity = try Identity.loadOrCreate(at: store.root + "/../identity.json")
        let message = Sealer.seal(
            Message(
                id: id, title: "Old", from: "Ada", created: Date(),
                pages: [Page(text: "p", setA: [.time(Date(timeIntervalSinceNow: 86_400))])]),
            with: identity)
        var state = MessageState(ingestedAt: Date())
        state.pin.wrong = 2
        try store.restore(StoredMessage(message: message, state: state, chest: .regular, sentByYou: false))
        // Stored three days ago: the file's time is when it came in.
        let threeDaysAgo = timespec(tv_sec: time(nil) - 3 * 86_400, tv_nsec: 0)
        for path in [store.path(of: id, in: .regular), store.root + "/state/\(id.rawValue).json"] {
            var times = [threeDaysAgo, threeDaysAgo]
            #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        }
        try store.trash(id, from: .regular)
        // Deleted now, so kept: the purge of what was deleted over a day ago does not take it.
        #expect(
            Set(try Directory.names(in: store.deletedDirectory)) == ["\(id.rawValue).locked", "\(id.rawValue).json"])
        var found: [(Message, MessageState, Date)] = []
        #expect(store.loadDeleted(now: Date()) { message, state, at, _ in found.append((message, state, at)) }.isEmpty)
        #expect(found.map(\.0.id) == [id])
        #expect(found.first?.1.pin.wrong == 2)
        #expect(abs(found.first?.2.timeIntervalSinceNow ?? -100) < 10)
        // A day and more later it is no longer offered.
        #expect(
            store.loadDeleted(now: Date().addingTimeInterval(DeletedMessage.keptFor + 60)) { _, _, _, _ in
                Issue.record("offered after it expired")
            }.isEmpty)
    }

    @Test func aSecondFileOfTheSameNameIsStagedBesideTheFirst() throws {
        // The first could not be read (chestd was out of descriptors) and is still staged.
        try write("first sender", to: store.incoming + "/note.locked")
        try write("second sender", to: store.root + "/note.locked")
        let staged = try #require(try store.stage("note.locked"))
        #expect(staged == store.incoming + "/note.locked.2")
        #expect(contents(store.incoming + "/note.locked") == "first sender")
        #expect(contents(staged) == "second sender")
        #expect(try store.stage("note.locked") == nil)  // gone from the inbox: nothing to do
    }

    @Test func aRefusedFileNeverReplacesAnEarlierOneOrItsReason() throws {
        for sender in ["one", "two", "three"] {
            try write(sender, to: store.incoming + "/x.locked")
            try store.reject(store.incoming + "/x.locked", reason: "refused \(sender)")
        }
        #expect(contents(store.rejected + "/x.locked") == "one")
        #expect(contents(store.rejected + "/x.locked.2") == "two")
        #expect(contents(store.rejected + "/x.locked.3.reason") == "refused three\n")
    }

    @Test func aRefusedFileWithA255ByteNameIsSetAsideWithItsReason() throws {
        let name = String(repeating: "é", count: 124) + ".locked"  // 248 + 7 bytes
        #expect(name.utf8.count == 255)
        try write("long", to: store.incoming + "/" + name)
        let setAside = try store.reject(store.incoming + "/" + name, reason: "too long a story")
        #expect(setAside == name)
        #expect(contents(store.rejected + "/" + name) == "long")
        let reasons = try FileManager.default.contentsOfDirectory(atPath: store.rejected).filter {
            $0.hasSuffix(".reason")
        }
        #expect(reasons.count == 1 && reasons[0].utf8.count <= 255)
        #expect(contents(store.rejected + "/" + reasons[0]) == "too long a story\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.incoming).isEmpty)
    }

    @Test func aNameThatIsNotUTF8IsRenamedSoItCanBeIngested() throws {
        let raw: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".locked".utf8)
        let path = Array((store.root + "/").utf8) + raw + [0]
        let fd = path.withUnsafeBufferPointer {
            open(
                UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self),
                O_WRONLY | O_CREAT, 0o600)
        }
        #expect(fd >= 0)
        close(fd)
        #expect(try store.inboxNames() == ["caf%E9.locked"])
        #expect(try store.stage("caf%E9.locked") == store.incoming + "/caf%E9.locked")
    }

    @Test func aRefusedFileWrittenSinceGoesBackToIncomingWithoutItsReason() throws {
        try write("half", to: store.incoming + "/y.locked")
        try store.reject(store.incoming + "/y.locked", reason: "truncated")
        #expect(try store.unreject("y.locked.reason") == nil)
        #expect(try store.unreject("y.locked") == store.incoming + "/y.locked")
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.rejected).isEmpty)
    }

    @Test func aSparse3GBFileIsRefusedBySizeWithoutBeingRead() throws {
        let path = store.root + "/sparse.locked"
        #expect(creat(path, 0o600) >= 0)
        #expect(truncate(path, 3 << 30) == 0)
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let before = usage.ru_maxrss
        #expect(throws: MessageFileReader.ReadError.tooLarge(size: 3 << 30)) { try MessageFileReader.read(path: path) }
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #expect(usage.ru_maxrss - before < 64 * 1024)  // KiB: nothing near 3 GB was allocated
    }
}
