import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// The daemon loop's mailbox: events posted from other threads, and a descriptor watched beside them.
@Suite(.timeLimit(.minutes(1)))
struct MailboxTests {
    @Test func everyEventPostedFromOtherThreadsArrivesOnceAndEachThreadsInOrder() throws {
        let mailbox = try Mailbox<(thread: Int, serial: Int)>()
        for thread in 0..<4 {
            Thread { for serial in 0..<2_500 { mailbox.yield((thread, serial)) } }.start()
        }
        var received: [[Int]] = Array(repeating: [], count: 4)
        var wakes = 0
        while received.map(\.count).reduce(0, +) < 10_000 {
            for event in mailbox.wait().events { received[event.thread].append(event.serial) }
            wakes += 1
        }
        #expect(received.allSatisfy { $0 == Array(0..<2_500) })
        // Events posted while the loop had not yet taken the earlier ones ring no bell of their own.
        #expect(wakes < 10_000)
    }

    /// A wait woken by the descriptor takes the events only when the bell rang: none may be left behind for good.
    /// With a descriptor that always has something to read, every wait returns at once, racing the posts.
    @Test func eventsPostedWhileTheDescriptorKeepsWakingTheLoopAllArrive() throws {
        let mailbox = try Mailbox<(thread: Int, serial: Int)>()
        var ends: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        _ = write(ends[1], "x", 1)  // never read: the descriptor stays readable
        for thread in 0..<4 {
            Thread { for serial in 0..<2_500 { mailbox.yield((thread, serial)) } }.start()
        }
        var received: [[Int]] = Array(repeating: [], count: 4)
        let deadline = MonotonicClock.now() + 50
        while received.map(\.count).reduce(0, +) < 10_000, MonotonicClock.now() < deadline {
            let wake = mailbox.wait(orReadable: FileDescriptor(rawValue: ends[0]))
            #expect(wake.readable)
            for event in wake.events { received[event.thread].append(event.serial) }
        }
        #expect(received.allSatisfy { $0 == Array(0..<2_500) })
    }

    @Test func aWaitSleepsUntilAnEventIsPosted() throws {
        let mailbox = try Mailbox<String>()
        let start = MonotonicClock.now()
        let waiter = try Self.currentThread()
        // The event comes once the test's thread has slept in the wait for 0.15 s ("late"), or after 10 s if it never
        // did ("awake"): a wait that returned or spun without an event would not be asleep.
        Thread {
            let slept = holdsWithin(10, every: 0.005) { Self.sleeps(waiter) && MonotonicClock.now() - start >= 0.15 }
            mailbox.yield(slept ? "late" : "awake")
        }.start()
        let wake = mailbox.wait()
        #expect(wake.events == ["late"])
        #expect(!wake.readable)
        #expect(MonotonicClock.now() - start >= 0.15)
    }

    /// The organiser's link waits with a timeout (the board redraws and reads keys between messages).
    @Test func aWaitWithATimeoutReturnsEmptyWhenNothingCameAndAtOnceWhenSomethingWas() throws {
        let mailbox = try Mailbox<String>()
        let start = MonotonicClock.now()
        let empty = mailbox.wait(timeout: 0.2)
        #expect(empty.events.isEmpty && !empty.readable)
        #expect(MonotonicClock.now() - start >= 0.19)
        mailbox.yield("a")
        mailbox.yield("b")
        let posted = MonotonicClock.now()
        #expect(mailbox.wait(timeout: 30).events == ["a", "b"])
        #expect(MonotonicClock.now() - posted < 10, "not the timeout")
    }

    /// The calling thread's /proc directory, such as "1234/task/1240" (Glibc has no gettid).
    static func currentThread() throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
    }

    /// Whether thread `thread` (from `currentThread`) sleeps in the kernel (state S in its stat).
    static func sleeps(_ thread: String) -> Bool {
        let stat = (try? String(contentsOfFile: "/proc/\(thread)/stat", encoding: .utf8)) ?? ""
        return stat.split(separator: ")").last?.split(separator: " ").first == "S"
    }

    @Test func aWaitWakesForTheWatchedDescriptorAndSaysSo() throws {
        let mailbox = try Mailbox<String>()
        var ends: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let writer = ends[1]
        let waiter = try Self.currentThread()
        // The byte comes once the test's thread sleeps in the wait.
        Thread {
            _ = holdsWithin(10, every: 0.001) { Self.sleeps(waiter) }
            _ = write(writer, "x", 1)
        }.start()
        let wake = mailbox.wait(orReadable: FileDescriptor(rawValue: ends[0]))
        #expect(wake.readable)
        #expect(wake.events.isEmpty)
        mailbox.yield("posted")
        // A descriptor with data still waiting and an event: the wait reports both.
        let both = mailbox.wait(orReadable: FileDescriptor(rawValue: ends[0]))
        #expect(both.readable && both.events == ["posted"])
    }
}
