/// "Did you mean …?": the candidate nearest to a mistyped word.
enum Suggestion {
    /// The candidate with the fewest single-character edits from `word`, if it is close enough to be a typo
    /// (at most two edits, and fewer than half the word) or starts with it.
    static func nearest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { (candidate: $0, distance: distance(word, $0)) }
        let close = scored.filter { $0.distance <= 2 && $0.distance * 2 < max(word.count, 2) }
        if let best = close.min(by: { $0.distance < $1.distance }) { return best.candidate }
        let extending = candidates.filter { word.count >= 2 && $0.hasPrefix(word) }
        return extending.count == 1 ? extending[0] : nil
    }

    /// The Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
