/// "Did you mean …?": the candidate nearest to a mistyped word.
package enum Suggestion {
    /// The candidate with the fewest single-character edits from `word`, if it is close enough to be a typo
    /// (at most two edits, and fewer than half the word) or starts with it.
    package static func nearest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { (candidate: $0, distance: distance(word, $0)) }
        let close = scored.filter { $0.distance <= 2 && $0.distance * 2 < max(word.count, 2) }
        if let best = close.min(by: { $0.distance < $1.distance }) { return best.candidate }
        let extending = candidates.filter { word.count >= 2 && $0.hasPrefix(word) }
        return extending.count == 1 ? extending[0] : nil
    }

    /// The edit distance, with a swap of two neighbours as one edit (optimal string alignment).
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var before = [Int]()
        var previous = Array(0...b.count)
        for i in a.indices {
            var current = [i + 1]
            for j in b.indices {
                var cost = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
                if i > 0, j > 0, a[i] == b[j - 1], a[i - 1] == b[j] { cost = min(cost, before[j - 1] + 1) }
                current.append(cost)
            }
            (before, previous) = (previous, current)
        }
        return previous[b.count]
    }
}
