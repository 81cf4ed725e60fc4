import ChestCore
import ChestTestSupport
import Foundation
import Testing

/// Issue 45, item 4: `compose --hunt` (and a quest composed for a hunt) refuses points on a page that nothing can
/// prove, with a sentence that says why and what to add (docs/HUNTS.md "Points"), and writes nothing.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(3)))
struct HuntPointsComposeTests {
    func huntWorld() throws -> (ChestHarness, String) {
        let world = ChestHarness()
        let hunt = world.root + "/q.hunt"
        #expect(try world.chest(["hunt", "create", "Q", "--broker", "mqtt://127.0.0.1:1883", "-o", hunt]).status == 0)
        return (world, hunt)
    }

    @Test func pointsOnAPageWithoutLocksOrOnAVisiblePlaceAreRefused() throws {
        let (world, hunt) = try huntWorld()
        let open = try world.chest([
            "compose", "--seal-cost", "interactive", "-o", world.root + "/open.locked", "--hunt", hunt,
            "--title", "T", "--page", "Welcome", "--points", "3",
        ])
        #expect(open.status != 0)
        #expect(
            open.stderr.contains("page 1 is worth 3 points") && open.stderr.contains("a page without locks")
                && open.stderr.contains("sends the board no receipt") && open.stderr.contains("or make it worth 0"),
            "\(open.stderr)")
        #expect(!FileManager.default.fileExists(atPath: world.root + "/open.locked"))
        let visible = try world.chest([
            "compose", "--seal-cost", "interactive", "-o", world.root + "/visible.locked", "--hunt", hunt,
            "--title", "T", "--page", "At the fountain", "--lock", "location=46.2051,6.1456/40m,visible",
            "--points", "2",
        ])
        #expect(visible.status != 0)
        #expect(
            visible.stderr.contains("page 1 is worth 2 points") && visible.stderr.contains("a visible place")
                && visible.stderr.contains("a place without ,visible, a PIN, an answer or a release"),
            "\(visible.stderr)")
        // A set B of a visible place beside a sealed set A: the page can open without a secret, so it is refused too.
        let either = try world.chest([
            "compose", "--seal-cost", "interactive", "-o", world.root + "/either.locked", "--hunt", hunt,
            "--title", "T", "--page", "p", "--lock", "pin=482193", "--or",
            "--lock", "location=46.2051,6.1456/40m,visible", "--points", "2",
        ])
        #expect(either.status != 0 && either.stderr.contains("a set of it holds no secret"), "\(either.stderr)")
        // Worth 0, or sealed by a secret, it is composed.
        let free = try world.chest([
            "compose", "--seal-cost", "interactive", "-o", world.root + "/free.locked", "--hunt", hunt,
            "--title", "T", "--page", "Welcome", "--points", "0",
            "--page", "The PIN page", "--lock", "pin=482193", "--points", "4",
        ])
        #expect(free.status == 0, "\(free.stderr)")
    }

    @Test func aQuestForAHuntWithPointsOnAGuardedPageIsRefused() throws {
        let (world, hunt) = try huntWorld()
        let quest = world.root + "/bern.quest"
        try """
        message: bern
        title: Bern
        page: Start here.
          points: 0
        page: At the clock tower, at noon.
          lock: location=46.94797,7.44745/80m,visible=Zytglogge
          lock: time=2027-05-02T12:00:00Z
          points: 5
        """.write(toFile: quest, atomically: true, encoding: .utf8)
        let made = try world.chest([
            "compose", "--seal-cost", "interactive", "--quest", quest, "-o", world.root + "/bern.locked", "--hunt",
            hunt,
        ])
        #expect(made.status != 0)
        #expect(
            made.stderr.contains("page 2 is worth 5 points")
                && made.stderr.contains("proves only that the file was held"), "\(made.stderr)")
        #expect(!FileManager.default.fileExists(atPath: world.root + "/bern.locked"))
    }
}
