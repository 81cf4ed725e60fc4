/// The organiser's bonus or deduction for a team (docs/HUNTS.md "Adjustments"): kind `adjust`, published by
/// `chest hunt adjust` on `chest/<hunt>/organiser/adjust/<id>`, retained, signed by the organiser. The board adds
/// `points` to the team's and shows `reason` beside it.
package struct HuntAdjustment: Codable, Hashable, Sendable {
    package var team: String
    /// Points added (negative: taken away); never 0.
    package var points: Int
    /// Why, in the organiser's words: 1 to 200 characters, no control characters.
    package var reason: String

    package init(team: String, points: Int, reason: String) {
        self.team = team
        self.points = points
        self.reason = reason
    }

    /// The largest bonus or deduction one adjustment may carry, so that no sum of them overflows.
    package static let limit = 1_000_000

    /// Whether `reason` can be shown: 1 to 200 characters, no control characters.
    package static func isValidReason(_ reason: String) -> Bool {
        (1...200).contains(reason.count)
            && !reason.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
