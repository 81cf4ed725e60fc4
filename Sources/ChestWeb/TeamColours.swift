import FoundationEssentials

/// Each team's colour on the board (docs/HUNTS.md "The board in a browser"): the organiser's (`hunt team add NAME
/// --colour COLOUR`), else the colour the team is named after ("blue", "red-foxes"), else one from a palette that
/// skips every colour a team is named or coloured after, so a team called "blue" is never beside another blue dot.
package enum TeamColours {
    /// Colour names a team may be named after or given, with a shade that reads on light and dark backgrounds.
    package static let named: [(name: String, hex: String)] = [
        ("red", "#d62728"), ("blue", "#1f6fd1"), ("green", "#2ca02c"), ("orange", "#ff7f0e"), ("purple", "#8e44c9"),
        ("yellow", "#e2c000"), ("pink", "#e44fa8"), ("brown", "#8c564b"), ("grey", "#8a8a8a"), ("gray", "#8a8a8a"),
        ("black", "#262626"), ("white", "#f2f2f2"), ("cyan", "#17b3c7"), ("teal", "#138a7e"), ("magenta", "#c2188f"),
        ("navy", "#1d3b8a"), ("maroon", "#8a1f2b"), ("olive", "#8f8f1c"), ("lime", "#7ccf1f"), ("gold", "#d4a017"),
        ("silver", "#a7adb5"), ("violet", "#7f4fd8"), ("indigo", "#4b3bb0"), ("turquoise", "#2bbfb0"),
        ("crimson", "#c4173c"), ("coral", "#f26b5b"), ("amber", "#f0a30a"),
    ]

    /// The palette for teams named after no colour, most distinct first, as the names they would be called by.
    static let palette = [
        "blue", "orange", "green", "red", "purple", "brown", "pink", "teal", "olive", "navy", "gold",
        "magenta", "grey", "lime", "maroon", "cyan", "indigo", "coral",
    ]

    /// Whether `text` is a colour a team may be given: a name above or `#rrggbb`.
    package static func isValid(_ text: String) -> Bool { hex(text) != nil }

    /// `#rrggbb` for a colour name (any case) or a `#rrggbb` text; nil for anything else.
    package static func hex(_ text: String) -> String? {
        let lower = text.lowercased()
        if let entry = named.first(where: { $0.name == lower }) { return entry.hex }
        guard lower.utf8.count == 7, lower.hasPrefix("#"), lower.dropFirst().allSatisfy(\.isHexDigit) else {
            return nil
        }
        return lower
    }

    /// The colour a team is named after: a word of its name ("blue", "Red_Foxes", "teamGreen").
    static func namedAfter(_ team: String) -> String? {
        for word in words(team) {
            if let entry = named.first(where: { $0.name == word }) { return entry.name }
        }
        return nil
    }

    /// Every team's colour as `#rrggbb` or `hsl(…)`, in the order given.
    package static func assign(teams: [String], chosen: [String: String] = [:]) -> [String: String] {
        var result: [String: String] = [:]
        var takenHues: [Double] = []
        var takenNames = Set<String>()
        var rest: [String] = []
        for team in teams {
            if let colour = chosen[team].flatMap(hex) {
                result[team] = colour
                takenHues += hue(colour).map { [$0] } ?? []
                if let name = named.first(where: { $0.hex == colour })?.name { takenNames.insert(name) }
            } else if let name = namedAfter(team) {
                result[team] = hex(name)
                takenNames.insert(name)
                takenHues += hue(hex(name)!).map { [$0] } ?? []
            } else {
                rest.append(team)
            }
        }
        // Colours taken by name, and their spelling variants, are not handed out again.
        if takenNames.contains("grey") || takenNames.contains("gray") {
            takenNames.formUnion(["grey", "gray", "silver"])
        }
        var free = palette.filter { name in
            !takenNames.contains(name)
                && !takenHues.contains { taken in hue(hex(name)!).map { close($0, taken, within: 12) } ?? false }
        }
        var generated = 0
        for team in rest {
            if !free.isEmpty {
                result[team] = hex(free.removeFirst())
                continue
            }
            // More teams than the palette: hues spread by the golden angle, away from every hue a name took.
            var colour: String
            repeat {
                let hue = (Double(generated) * 137.508 + 20).truncatingRemainder(dividingBy: 360)
                let lightness = [45, 35, 58][generated / 3 % 3]
                generated += 1
                colour = takenHues.contains { close(hue, $0, within: 20) } ? "" : "hsl(\(Int(hue)), 70%, \(lightness)%)"
            } while colour.isEmpty && generated < 10_000
            result[team] = colour
        }
        return result
    }

    /// A name's words, lower case: split at -, _, spaces, digits and lower-to-upper changes.
    static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousLower = false
        for character in name {
            if !character.isLetter {
                if !current.isEmpty { words.append(current.lowercased()) }
                current = ""
                previousLower = false
                continue
            }
            if character.isUppercase, previousLower {
                words.append(current.lowercased())
                current = ""
            }
            current.append(character)
            previousLower = character.isLowercase
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        return words
    }

    /// The hue of `#rrggbb`, nil for a grey.
    static func hue(_ hex: String) -> Double? {
        guard hex.hasPrefix("#"), let value = Int(hex.dropFirst(), radix: 16) else { return nil }
        let r = Double(value >> 16 & 0xff) / 255
        let g = Double(value >> 8 & 0xff) / 255
        let b = Double(value & 0xff) / 255
        let high = max(r, g, b)
        let low = min(r, g, b)
        let span = high - low
        guard span > 0.12 else { return nil }
        let h: Double =
            if high == r { (g - b) / span } else if high == g { (b - r) / span + 2 } else { (r - g) / span + 4 }
        return (h * 60 + 360).truncatingRemainder(dividingBy: 360)
    }

    private static func close(_ a: Double, _ b: Double, within degrees: Double) -> Bool {
        let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(difference, 360 - difference) < degrees
    }
}
