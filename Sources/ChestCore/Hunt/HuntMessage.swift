/// A message composed for a hunt, as the organiser's hunt file records it (docs/HUNTS.md "Proof of opening"): its
/// title and each page's key, so the board can check the proofs in receipts. Never in a join file.
package struct HuntMessage: Codable, Hashable, Sendable {
    package struct PageKey: Codable, Hashable, Sendable {
        /// The page key (32 bytes), base64.
        package var key: String
        /// Whether a set of the page holds the key in the clear (a guard): then whoever has the file can make the
        /// proof, and it proves only that the file was held.
        package var guarded: Bool
        /// The page's location locks kept in the clear (`,visible`): the board's map shows them.
        /// A sealed place is never recorded here, so the board cannot give it away on a projector.
        package var targets: [Target]?
        /// What the board credits for a proven opening of the page (`--points`); nil means 1.
        package var points: Int?
        /// The page's hints, in order (`--hint`): the board gives a hint's key to the team that asks for it.
        package var hints: [Hint]?
        /// The page's question (`--question`), in the clear as in the message file: the board may show it.
        package var question: String?
        /// For each of the page's lock sets, the pages its `after` locks wait for (empty for a set without one);
        /// absent when no set waits. The board counts a delayed hint from when one set's pages were all credited to
        /// the team (docs/HUNTS.md "Hints: the board's side").
        package var waitsFor: [[PageLink]]?
        /// For each of the page's lock sets, in the order of `waitsFor`, the releases its release locks wait for;
        /// absent when no set waits for one. The board counts a delayed hint from a set's release, too.
        package var releases: [[String]]?
        /// A finish page (`compose --finish`): its credited receipt stops the team's clock (docs/HUNTS.md "A
        /// finish"); absent for any other page.
        package var finish: Bool?
        /// A mission page (`compose --mission`): its points (`points`, the most) are given by the organiser's verdict
        /// on what the team submits, not by its opening (docs/HUNTS.md "Missions"); absent for any other page.
        package var mission: Bool?

        package init(
            key: String, guarded: Bool, targets: [Target]? = nil, points: Int? = nil, hints: [Hint]? = nil,
            waitsFor: [[PageLink]]? = nil, releases: [[String]]? = nil
        ) {
            self.key = key
            self.guarded = guarded
            self.targets = targets
            self.points = points
            self.hints = hints
            self.waitsFor = waitsFor
            self.releases = releases
        }

        /// What each of the page's lock sets waits for before the page can be a team's goal: the pages of its `after`
        /// locks and the releases of its release locks; one set that waits for nothing when the file says nothing.
        package var goalSets: [GoalSet] {
            let pages = waitsFor ?? []
            let releases = releases ?? []
            return (0..<max(pages.count, releases.count, 1)).map { index in
                GoalSet(
                    pages: pages.indices.contains(index) ? pages[index] : [],
                    releases: releases.indices.contains(index) ? releases[index] : [])
            }
        }

        /// The points the board credits for the page.
        package var worth: Int { points ?? 1 }
    }

    /// What one lock set of a page waits for before the page is a team's goal (docs/HUNTS.md "Hints: the board's
    /// side"): pages credited to the team, and releases the board heard.
    package struct GoalSet: Hashable, Sendable {
        package var pages: [PageLink]
        package var releases: [String]

        package init(pages: [PageLink], releases: [String]) {
            self.pages = pages
            self.releases = releases
        }
    }

    /// A page's hint as the organiser's file keeps it: the key that opens its text, what it costs a team that asks
    /// the board for it, and the delay after which the board gives it free (nil: only when asked).
    package struct Hint: Codable, Hashable, Sendable {
        /// The hint's key (32 bytes), base64.
        package var key: String
        /// Points the board subtracts from the team it gives the hint to; 0 for a free hint.
        package var cost: Int
        /// Seconds after the page became the team's next goal at which the board gives the hint free, if ever
        /// (docs/HUNTS.md "Hints: the board's side").
        package var after: Double?

        package init(key: String, cost: Int, after: Double? = nil) {
            self.key = key
            self.cost = cost
            self.after = after
        }
    }

    /// A place a reader is shown anyway (distance and direction): its centre and radius in metres.
    package struct Target: Codable, Hashable, Sendable {
        package var latitude: Double
        package var longitude: Double
        package var radius: Double
        /// The organiser's name for the place (`,visible=NAME`), when it has one.
        package var label: String?

        package init(_ center: Coordinate, radius: Double, label: String? = nil) {
            latitude = center.latitude
            longitude = center.longitude
            self.radius = radius
            self.label = label
        }

        package var center: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
        var isValid: Bool {
            center.isValid && radius.isFinite && radius > 0 && label.map { (1...200).contains($0.count) } ?? true
        }
    }

    /// Every visible target of the hunt's messages, with the title and page it belongs to, in a stable order.
    package static func targets(of messages: [MessageID: HuntMessage]?) -> [(title: String, page: Int, target: Target)]
    {
        (messages ?? [:]).sorted { $0.key < $1.key }.flatMap { _, message in
            message.pages.enumerated().flatMap { index, page in
                (page.targets ?? []).map { (message.title, index + 1, $0) }
            }
        }
    }

    package var title: String
    /// Page 1 first.
    package var pages: [PageKey]

    package init(title: String, pages: [PageKey]) {
        self.title = title
        self.pages = pages
    }
}
