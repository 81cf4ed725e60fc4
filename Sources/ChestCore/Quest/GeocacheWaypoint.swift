import FoundationEssentials

/// One `<wpt>` of a geocaching GPX as the reader found it (docs/QUEST.md "A course from a geocaching GPX"): a cache,
/// an Adventure Lab stage, an additional waypoint or a plain waypoint. Its texts are plain text already (HTML
/// descriptions turned into text, hints decoded where the file says they are encoded); `GeocacheCourse` maps a list
/// of them to a quest.
package struct GeocacheWaypoint: Hashable, Sendable {
    /// Its `<name>`: the cache code (`GC1BKP3`), a stage's (`GC8DAEP-1`) or an additional waypoint's (`PK1BKP3`).
    package var code: String
    /// The line of its `<wpt>` tag.
    package var line: Int
    /// `nil` when the file gives none that can be used; `coordinateProblem` says why.
    package var coordinate: Coordinate?
    /// Why there is no coordinate: missing, not a number, out of range, or a placeholder such as "N/S __ ° __ . ___".
    package var coordinateProblem: String?
    /// `<urlname>` (GPX 1.0) or `<link><text>` (GPX 1.1).
    package var urlName: String?
    /// `<desc>` and `<cmt>`.
    package var description: String?
    package var comment: String?
    /// `<type>`, such as `Geocache|Traditional Cache` or `Waypoint|Parking Area`, and `<sym>`.
    package var type: String?
    package var symbol: String?
    /// The cache extension's (`groundspeak:cache` of any version, and the same fields of other namespaces).
    package var cacheName: String?
    package var cacheType: String?
    /// `owner`, else `placed_by`.
    package var owner: String?
    /// `placed_by`, which GSAK appends to the cache's name.
    package var placedBy: String?
    /// The code a tool gives the waypoint beside its `<name>` (`gsak:Code`): the code, where the name is the tool's
    /// shortened form (`3A5N1 "Medvedi" chodnik nad Pavcink`).
    package var sourceCode: String?
    package var shortDescription: String?
    package var longDescription: String?
    /// `encoded_hints` as plain text.
    package var hints: String?
    /// The cache extension's namespace and `id` attribute (`groundspeak:cache id=…`, `terra:terracache id=…`):
    /// TerraCaching writes a cache's stages and points as waypoints of their own with their cache's extension.
    package var cacheID: String?

    package init(code: String, line: Int, coordinate: Coordinate?) {
        self.code = code
        self.line = line
        self.coordinate = coordinate
    }

    /// The type after `Waypoint|` of an additional waypoint (`Parking Area`), or `nil` for a cache or a plain point.
    package var additionalType: String? {
        guard let type, type.lowercased().hasPrefix("waypoint|") else { return nil }
        return String(type.dropFirst("waypoint|".count)).trimmingSpaces()
    }

    /// An Adventure Lab stage: its type says Lab.
    package var isLabStage: Bool {
        [type, cacheType].contains { $0?.lowercased().contains("lab") == true }
    }

    /// The name a reader knows it by: the cache's name, else `urlname`, else `<name>`; for an additional waypoint
    /// its description ("Station 1") before its code.
    /// The cache's name is kept without what GSAK appends to it: " by OWNER (D/T)".
    package var title: String {
        let candidates = additionalType == nil ? [cacheName, urlName, code] : [cacheName, urlName, description, code]
        let title = candidates.lazy.compactMap { $0.map(GeocacheText.oneLine) }.first { !$0.isEmpty } ?? code
        return withoutOwner(title)
    }

    /// `name` without a trailing " by OWNER" or " by OWNER (2,5/2)" naming its owner or placer.
    func withoutOwner(_ name: String) -> String {
        var rest = Substring(name)
        if let rating = rest.firstMatch(of: #/ \([0-9.,]+/[0-9.,]+\)$/#) { rest = rest[..<rating.range.lowerBound] }
        for who in [placedBy, owner].compactMap({ $0.map(GeocacheText.oneLine) }) where !who.isEmpty {
            let by = " by " + who
            if rest.hasSuffix(by), rest.count > by.count { return String(rest.dropLast(by.count)) }
        }
        return name
    }
}

/// Text as a quest holds it.
package enum GeocacheText {
    /// One line: every run of whitespace (newlines too) one space, and no control or format characters.
    package static func oneLine(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var space = false
        for scalar in text.unicodeScalars {
            if scalar.isWhitespaceQuickly {
                space = !result.isEmpty
                continue
            }
            if isControlOrFormat(scalar) { continue }
            if space { result.unicodeScalars.append(" ") }
            space = false
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// Lines without trailing spaces or control characters, no more than one empty line in a row, none at either end.
    package static func lines(_ text: String) -> [String] {
        var lines: [String] = []
        var line = String.UnicodeScalarView()
        func endLine() {
            let trimmed = String(line).trimmingSpaces()
            line = String.UnicodeScalarView()
            if trimmed.isEmpty && (lines.last?.isEmpty ?? true) { return }
            lines.append(trimmed)
        }
        // Scalar by scalar, not Character by Character: a Pocket Query's thousand descriptions split into
        // graphemes cost a second (docs/BENCHMARKS.md "A Pocket Query as a quest"). CR LF is one line break, as
        // the Character "\r\n" was.
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            if scalar == "\n" && afterCR { continue }
            if scalar.isNewline {
                endLine()
            } else if scalar == "\t" {
                line.append(" ")
            } else if !isControlOrFormat(scalar) {
                line.append(scalar)
            }
        }
        endLine()
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// A control character (Cc) or an invisible format character (Cf), which a page's text leaves out; the general
    /// category is looked up only beyond ASCII, where it costs a table search.
    private static func isControlOrFormat(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value < 0x20 || scalar.value == 0x7F }
        let category = scalar.properties.generalCategory
        return category == .control || category == .format
    }

    /// ROT13, the hints' encoding where a file marks them encoded: letters A–Z and a–z turned 13 places, the rest kept.
    package static func rot13(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    switch scalar.value {
                    case 65...90: Unicode.Scalar((scalar.value - 65 + 13) % 26 + 65)!
                    case 97...122: Unicode.Scalar((scalar.value - 97 + 13) % 26 + 97)!
                    default: scalar
                    }
                }))
    }

    /// At most `limit` Unicode scalars, cut with "…".
    package static func truncated(_ text: String, to limit: Int) -> String {
        guard text.unicodeScalars.count > limit else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit - 1))) + "…"
    }
}
