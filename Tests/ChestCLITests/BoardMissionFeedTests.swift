import ChestCore
import ChestSeal
import Foundation
import Testing

@testable import ChestCLI

/// Missions through `chest board`'s adapter, on real files, real sealed boxes and real signatures, without a broker
/// (docs/HUNTS.md "Missions"): a photo opened with the organiser's key and kept beside the journal under its SHA-256, a
/// later one replacing it, an SVG dressed as a PNG refused, a flood of submissions rated, the terminal's lines, and a
/// restart that keeps what waits.
extension BoardFeedTests {
    /// A 1 × 1 PNG.
    static let pixel = Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")!

    @Test func submissionsAreOpenedKeptBesideTheJournalRatedAndRestored() throws {
        var (hunt, team, organiser, _) = try setUp()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let message = try #require(hunt.messages?.keys.first)
        hunt.messages?[message]?.pages[0].mission = true
        try hunt.write(to: huntPath)
        var feed = BoardFeed(hunt: hunt, huntPath: huntPath, organiser: organiser)
        var rate = TeamRate(hunt: hunt)
        _ = try feed.restore()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        func submit(_ id: UInt64, _ bytes: Data, kind: HuntSubmission.Kind = .png) throws -> Data {
            let box = try #require(HintSeal.seal(bytes, toReader: hunt.organiser))
            return try signed(
                HuntEnvelope(
                    hunt: hunt.id, sender: "red", id: id, sent: start,
                    submit: HuntSubmission(message: message, page: 1, kind: kind, sealed: box.base64EncodedString())),
                team)
        }
        func offer(_ id: UInt64, _ payload: Data, at seconds: Double) -> [BoardEvent] {
            Self.offer(
                &feed, &rate, topic: HuntTopic.submit(hunt: hunt.id, team: "red", id: id), payload: payload,
                retained: false, at: start.addingTimeInterval(seconds))
        }
        let photos = BoardFeed.photosPath(huntPath: huntPath)
        let first = offer(1, try submit(1, Self.pixel), at: 0)
        let digest = ContentDigest.hex([UInt8](Self.pixel))
        #expect(
            first.contains(.submitted(team: "red", message: message, page: 1, kind: "png", id: 1, receivedAt: start)))
        #expect(FileManager.default.contents(atPath: photos + "/\(digest).png") == Self.pixel, "kept under its digest")
        #expect(feed.core.waiting.map(\.digest) == [digest])
        // The journal holds the digest, never the sealed photo.
        let journal = try String(contentsOfFile: BoardFeed.journalPath(huntPath: huntPath), encoding: .utf8)
        #expect(journal.contains(digest) && !journal.contains("sealed"))

        // An SVG dressed as a PNG: opened, refused, nothing kept.
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8)
        let refused = offer(2, try submit(2, svg), at: 1)
        #expect(
            refused.contains {
                if case let .refused(reason, _, why) = $0 {
                    reason == "unreadable" && why.contains("SVG")
                } else {
                    false
                }
            }, "\(refused)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: photos) == ["\(digest).png"])

        // A later photo replaces the first, which is removed; the text lists on the terminal board.
        var other = Self.pixel
        other.append(contentsOf: [1, 2, 3])
        _ = offer(3, try submit(3, other), at: 2)
        let otherDigest = ContentDigest.hex([UInt8](other))
        #expect(try FileManager.default.contentsOfDirectory(atPath: photos) == ["\(otherDigest).png"])
        #expect(feed.core.waiting.map(\.id) == [3])
        let lines = BoardScreen.judgeLines(feed.core.waiting)
        #expect(lines.contains { $0.contains("red \(message.short) page 1: photo (png)") }, "\(lines)")

        // 300 more in about a second: the team's rate takes its burst, the rest is refused unchecked; still one waits.
        for id in UInt64(4)...303 {
            _ = offer(id, try submit(id, other), at: 3 + Double(id) / 300)
        }
        #expect(feed.gate.refused[.tooFast, default: 0] >= 190, "\(feed.gate.refused)")
        #expect(feed.core.waiting.count == 1 && feed.core.submissions.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: photos).count == 1)
        feed.stop(at: start.addingTimeInterval(10))

        // Restarted: the same submission waits, its photo beside the journal.
        var again = BoardFeed(hunt: hunt, huntPath: huntPath, organiser: organiser)
        _ = try again.restore()
        #expect(again.core.waiting == feed.core.waiting)
        again.stop(at: start.addingTimeInterval(11))

        // A board without the organiser's identity cannot open it.
        try FileManager.default.removeItem(atPath: BoardFeed.journalPath(huntPath: huntPath))
        var stranger = BoardFeed(hunt: hunt, huntPath: huntPath, organiser: nil)
        _ = try stranger.restore()
        let unopened = stranger.receive(
            topic: HuntTopic.submit(hunt: hunt.id, team: "red", id: 400), payload: try submit(400, Self.pixel),
            retained: false, at: start.addingTimeInterval(12))
        #expect(unopened.contains { if case .refused("unreadable", _, _) = $0 { true } else { false } })
        stranger.stop(at: start.addingTimeInterval(13))
    }
}
