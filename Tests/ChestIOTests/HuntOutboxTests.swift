import ChestCore
import ChestTestSupport
import Foundation
import Glibc
import Testing

@testable import ChestIO

/// The outbox keeps entries in id order across reopenings, never reuses an id, lets a newer retained status
/// replace older ones, and neither a kill -9 in the middle of appends nor a full disk leaves a half entry or
/// loses an earlier one.
@Suite(.timeLimit(.minutes(1)))
struct HuntOutboxTests {
    func temporaryDirectory() throws -> String {
        try Directory.makeTemporary("chest-outbox") + "/outbox"
    }

    func receipt(_ outbox: HuntOutbox, _ text: String = "receipt") throws -> OutboxEntry {
        try outbox.append { id in ("chest/h/red/receipt", Data("\(text) \(id)".utf8), false) }
    }

    func status(_ outbox: HuntOutbox, team: String = "red") throws -> OutboxEntry {
        try outbox.append { id in ("chest/h/\(team)/status", Data("status \(id)".utf8), true) }
    }

    func files(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    @Test func entriesComeBackInOrderAfterAReopen() throws {
        let directory = try temporaryDirectory()
        let outbox = try HuntOutbox(directory: directory)
        #expect(outbox.pending.isEmpty)
        let made = try (0..<12).map { _ in try receipt(outbox) }
        #expect(made.map(\.id) == Array(1...12))
        #expect(
            made[4] == OutboxEntry(id: 5, topic: "chest/h/red/receipt", payload: Data("receipt 5".utf8), retain: false))
        #expect(outbox.pending == made)
        let mode = (try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int) ?? 0
        #expect(mode == 0o700)
        #expect(try HuntOutbox(directory: directory).pending == made, "ordered by id, not by file name order or time")
    }

    @Test func idsAreNeverReusedAfterRemovalAndReopening() throws {
        let directory = try temporaryDirectory()
        var outbox = try HuntOutbox(directory: directory)
        for _ in 0..<3 { _ = try receipt(outbox) }
        try outbox.remove(2)
        try outbox.remove(3)
        try outbox.remove(3)
        #expect(outbox.pending.map(\.id) == [1])
        outbox = try HuntOutbox(directory: directory)
        #expect(try receipt(outbox).id == 4)
        for id in [1, 4] as [UInt64] { try outbox.remove(id) }
        #expect(try files(directory) == ["next"])
        outbox = try HuntOutbox(directory: directory)
        #expect(outbox.pending.isEmpty)
        #expect(try receipt(outbox).id == 5, "every entry gone, the counter still remembers")
    }

    @Test func aNewerStatusReplacesOlderPendingOnesOfItsTopic() throws {
        let directory = try temporaryDirectory()
        let outbox = try HuntOutbox(directory: directory)
        _ = try status(outbox)
        _ = try receipt(outbox)
        _ = try status(outbox, team: "blue")
        _ = try status(outbox)
        _ = try receipt(outbox)
        let last = try status(outbox)
        #expect(outbox.pending.map(\.id) == [2, 3, 5, 6])
        #expect(outbox.pending.last == last)
        #expect(try HuntOutbox(directory: directory).pending.map(\.id) == [2, 3, 5, 6], "the replaced files are gone")
        try outbox.remove(1)
    }

    @Test func aFailingBuilderWritesNothing() throws {
        let directory = try temporaryDirectory()
        let outbox = try HuntOutbox(directory: directory)
        struct Refused: Error {}
        #expect(throws: Refused.self) { try outbox.append { _ in throw Refused() } }
        #expect(outbox.pending.isEmpty)
        #expect(try files(directory).isEmpty)
        #expect(try receipt(outbox).id == 1)
    }

    @Test func leftoversOfACrashAreClearedAndABadEntryIsNamed() throws {
        let directory = try temporaryDirectory()
        let outbox = try HuntOutbox(directory: directory)
        _ = try receipt(outbox)
        // What a crash between writing and renaming leaves: a temporary beside the entries, half written.
        try Data(#"{"id":2,"topic":"chest/h/red/rec"#.utf8).write(
            to: URL(fileURLWithPath: directory + "/.tmp-00000000000000000002.json-4242"))
        let reopened = try HuntOutbox(directory: directory)
        #expect(reopened.pending.map(\.id) == [1])
        #expect(try files(directory) == ["00000000000000000001.json"])
        #expect(try receipt(reopened).id == 2)
        try Data("{".utf8).write(to: URL(fileURLWithPath: directory + "/00000000000000000009.json"))
        #expect(throws: ChestError.self) { try HuntOutbox(directory: directory) }
        try Data("x".utf8).write(to: URL(fileURLWithPath: directory + "/00000000000000000009.json"))
        try FileManager.default.removeItem(atPath: directory + "/00000000000000000009.json")
        try Data("many\n".utf8).write(to: URL(fileURLWithPath: directory + "/next"))
        #expect(throws: ChestError.self) { try HuntOutbox(directory: directory) }
    }

    @Test func aKillNineWhileAppendingLeavesOnlyWholeEntries() async throws {
        let directory = try temporaryDirectory()
        _ = try HuntOutbox(directory: directory)
        // A process of its own (an exit test, not fork(): a child forked from the test's threads can hang on a lock one
        // of them held) appends until a second thread, once a random entry from the 21st to the 60th is in the
        // directory, kills it, at whatever point of the next append the first is in.
        await #expect(processExitsWith: .signal(SIGKILL)) { [directory = directory as String] in
            let payload = String(repeating: "p", count: 3000)
            guard let outbox = try? HuntOutbox(directory: directory) else { exit(2) }
            while true {
                let receipt = { (id: UInt64) in
                    (topic: "chest/h/red/receipt", payload: Data("\(id) \(payload)".utf8), retain: false)
                }
                guard let entry = try? outbox.append(receipt) else { exit(3) }
                if entry.id == 20 {
                    let last = outbox.path(UInt64.random(in: 21...60))
                    Thread.detachNewThread {
                        _ = holdsWithin(60, every: 0.0005) { FileManager.default.fileExists(atPath: last) }
                        kill(getpid(), SIGKILL)
                    }
                }
            }
        }
        let outbox = try HuntOutbox(directory: directory)
        let pending = outbox.pending
        try #require(pending.count >= 20)
        #expect(pending.map(\.id) == Array(1...UInt64(pending.count)), "no gap, nothing half there")
        #expect(pending.allSatisfy { $0.payload == Data("\($0.id) \(String(repeating: "p", count: 3000))".utf8) })
        #expect(try files(directory).allSatisfy { !$0.hasPrefix(".") })
        #expect(try receipt(outbox).id > pending.last!.id)
    }

    @Test func aFullDiskRefusesTheAppendAndKeepsEarlierEntries() async throws {
        let directory = try temporaryDirectory()
        let first = try HuntOutbox(directory: directory)
        for _ in 0..<3 { _ = try receipt(first) }
        // A file size limit makes writes fail past 64 KiB as a full disk does, in a process of its own.
        await #expect(processExitsWith: .success) { [directory = directory as String] in
            signal(SIGXFSZ, SIG_IGN)
            var limit = rlimit(rlim_cur: 64 << 10, rlim_max: 64 << 10)
            guard setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0,
                let outbox = try? HuntOutbox(directory: directory)
            else { exit(2) }
            guard (try? outbox.append { id in ("chest/h/red/receipt", Data("small \(id)".utf8), false) }) != nil else {
                exit(3)
            }
            do {
                _ = try outbox.append { id in ("chest/h/red/receipt", Data(repeating: 0x61, count: 100 << 10), false) }
                exit(4)
            } catch {
                exit(outbox.pending.map(\.id) == [1, 2, 3, 4] ? 0 : 5)
            }
        }
        let outbox = try HuntOutbox(directory: directory)
        #expect(outbox.pending.map(\.id) == [1, 2, 3, 4])
        #expect(
            outbox.pending.map(\.payload) == ["receipt 1", "receipt 2", "receipt 3", "small 4"].map { Data($0.utf8) })
        #expect(try files(directory).allSatisfy { !$0.hasPrefix(".") }, "the refused entry's temporary file is gone")
        #expect(try receipt(outbox).id == 5)
    }
}
