import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Testing

@testable import ChestWeb

/// The hunt's start, end and time left on the board in a browser, and its date and window on the results (docs/HUNTS.md
/// "The hunt's start and end", "Results"): the schedule in force goes with the page, `/board.json` and each change.
@Suite struct BoardClockTests {
    static let utc = Zone(identifier: "UTC")!
    static let starts = Date(timeIntervalSince1970: 1_809_248_400)  // Sun 2 May 2027 09:00 UTC
    static let schedule = HuntSchedule(starts: starts, ends: starts.addingTimeInterval(7_200))

    @Test func theSummaryCarriesTheScheduleInForceForThePagesCountdown() throws {
        var snapshot = BoardDay.snapshot(teams: 3)
        #expect(
            !(BoardPage.sections(snapshot, timeZone: Self.utc)["summary"] ?? "").contains("clock"),
            "no schedule, no clock")
        snapshot.schedule = Self.schedule
        let summary = try #require(BoardPage.sections(snapshot, timeZone: Self.utc)["summary"])
        #expect(
            summary.contains(
                #"<p class="clock" id="clock" data-starts="2027-05-02T09:00:00Z" data-starts-at="09:00" "#
                    + #"data-ends="2027-05-02T11:00:00Z" data-ends-at="11:00">09:00–11:00</p>"#), "\(summary)")
        // A moved end is a new summary: the event stream sends it, and the page counts to the new end.
        var moved = snapshot
        moved.schedule.ends = Self.starts.addingTimeInterval(9_000)
        let again = try #require(BoardPage.sections(moved, timeZone: Self.utc)["summary"])
        #expect(again.contains(#"data-ends="2027-05-02T11:30:00Z""#) && again != summary)
        var stream = EventStream(after: 0)
        _ = stream.next(sections: ["summary": summary], events: [])
        #expect(
            String(decoding: stream.next(sections: ["summary": again], events: []), as: UTF8.self).contains("11:30:00Z")
        )
        // The page's script counts down, says when it ended and turns to the final ranking.
        for words in [
            "\"starts in \"", "\"ends in \"", "\"final ranking \\u00b7 ended \"",
            #"window.location.assign("/results?final")"#,
        ] {
            #expect(BoardAssets.javascript.contains(words), "\(words)")
        }
        let json = try JSON(BoardJSON.data(moved))
        #expect(
            json["starts"]?.string == "2027-05-02T09:00:00Z" && json["ends"]?.string == "2027-05-02T11:30:00Z")
    }

    @Test func theResultsSayTheDateAndWindowAndTimesInOneForm() throws {
        var snapshot = BoardDay.snapshot(teams: 12)
        snapshot.schedule = Self.schedule
        let results = BoardResults(snapshot)
        #expect(
            results.when(timeZone: Self.utc) == "Sun 2 May 2027, 09:00–11:00 UTC", "\(results.when(timeZone: Self.utc))"
        )
        let during = results.html(timeZone: Self.utc, served: true, now: Self.starts.addingTimeInterval(60))
        #expect(
            during.contains("results so far</h1>") && during.contains(#"<script src="/results.js" defer></script>"#))
        let after = results.html(timeZone: Self.utc, served: true, now: Self.starts.addingTimeInterval(7_200))
        #expect(after.contains("final ranking</h1>") && after.contains("09:00–11:00 UTC</p>"))
        #expect(
            after.contains(#"<meta name="color-scheme" content="light dark">"#)
                && BoardResults.css.contains("prefers-color-scheme: dark"))
        #expect(BoardResults.css.contains("@media print"))
        // One form for the whole column: 118 s and two minutes alike.
        #expect(
            BoardResults.span(118) == "0:01:58" && BoardResults.span(120) == "0:02:00"
                && BoardResults.span(10_800) == "3:00:00")
        #expect(after.contains(">3:00:00</td>") && !after.contains(" min</td>") && !after.contains(" s</td>"))
        // Without a schedule, the span of the pages credited.
        #expect(BoardResults(BoardDay.snapshot(teams: 2)).when(timeZone: Self.utc).hasPrefix("pages credited "))
    }
}
