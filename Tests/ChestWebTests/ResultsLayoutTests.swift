import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Testing

@testable import ChestWeb

/// The results on the big screen and on paper (docs/HUNTS.md "Results"): headless Chromium shows `/results` of forty
/// teams at 1920×1080 and 1280×720, light and dark, with no row below the window and the ranking paged by itself;
/// and prints it (`--print-to-pdf`).
@Suite(.realProcesses, .tags(.process, .chromium), .serialized, .timeLimit(.minutes(10)))
struct ResultsLayoutTests {
    @Test func fortyTeamsFitOrPageOnTheScreenLightAndDarkAndPrint() throws {
        var snapshot = BoardDay.snapshot(teams: 40, names: BoardDay.projectorNames(40))
        snapshot.schedule = HuntSchedule(
            starts: Date().addingTimeInterval(-7_200), ends: Date().addingTimeInterval(-60))
        let server = try BoardServer(
            address: HTTPAddress("127.0.0.1:0")!, access: BoardAccess(token: nil), snapshot: snapshot,
            timeZone: Zone(identifier: "UTC")!)
        defer { server.stop() }
        let url = server.url + "results"
        let screenshots = ProcessInfo.processInfo.environment["CHEST_BOARD_SCREENSHOTS"]
        for (width, height) in BoardLayoutTests.sizes {
            for dark in [false, true] {
                let page = try BoardLayoutTests.layout(url, width: width, height: height, dark: dark)
                let scheme = dark ? "dark" : "light"
                #expect(page.layout == "fits", "results at \(width)×\(height), \(scheme): \(page.layout)")
                #expect(page.dom.components(separatedBy: "<tr data-team=").count - 1 == 40, "every team is in the page")
                #expect(page.pages >= 2, "forty teams page at \(width)×\(height)")
                #expect(page.dom.contains("final ranking</h1>") && page.dom.contains(#"<p class="when">"#))
                let background = page.dom.range(of: #"data-background=""#).map {
                    String(page.dom[$0.upperBound...].prefix { $0 != "\"" })
                }
                #expect(
                    background == (dark ? "rgb(18, 20, 23)" : "rgb(255, 255, 255)"),
                    "\(scheme): \(background ?? "none")")
                if let screenshots {
                    let picture = "\(screenshots)/results-40-teams-\(width)x\(height)-\(scheme).png"
                    _ = try Chromium.run([
                        "--screenshot=" + picture, "--window-size=\(width),\(height)", "--hide-scrollbars",
                        Chromium.colourScheme(dark: dark), url,
                    ])
                }
            }
        }
        // On paper: Chromium's own paper (Letter) with the page's margins, every team, a few sheets.
        let pdf = FileManager.default.temporaryDirectory.appendingPathComponent("results-\(UUID().uuidString).pdf").path
        defer { try? FileManager.default.removeItem(atPath: pdf) }
        let printed = try Chromium.run(["--print-to-pdf=" + pdf, "--no-pdf-header-footer", url])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: pdf))
        let text = String(decoding: bytes, as: UTF8.self)
        let sheets =
            text.components(separatedBy: "/Type /Page\n").count - 1 + text.components(separatedBy: "/Type /Page/").count
            - 1
            + text.components(separatedBy: "/Type /Page ").count - 1
        #expect(printed.status == 0 && bytes.starts(with: Data("%PDF".utf8)), "\(printed.stderr)")
        #expect((2...8).contains(sheets), "\(sheets) sheets")
        if let screenshots {
            try? FileManager.default.copyItem(atPath: pdf, toPath: screenshots + "/results-40-teams.pdf")
        }
    }
}
