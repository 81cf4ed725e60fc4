/// A hint as the organiser writes it (`compose --hint TEXT [--hint-after DURATION] [--hint-cost POINTS]`, or a quest's
/// `hint:`, `hint-after:`, `hint-cost:` lines), before it is sealed (docs/FORMAT.md "Hints").
package struct HintDraft: Hashable, Sendable {
    package var text: String
    /// Seconds after its page became the reader's next goal at which it opens by itself.
    package var after: Int?
    /// Points a hunt's board charges for it; only in a hunt.
    package var cost: Int?

    package init(text: String, after: Int? = nil, cost: Int? = nil) {
        self.text = text
        self.after = after
        self.cost = cost
    }

    /// Reads a delay: whole numbers each with a unit, `s`, `m`, `h` or `d`, such as `90s`, `10m`, `1h30m`, `2d`; from
    /// 1 s to 30 days. Nil with the reason when it is not one.
    package static func delay(_ text: String) -> Result<Int, HintDraftError> {
        var total = 0
        var number = ""
        var sawUnit = false
        for character in text.lowercased() where character != " " {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            let unit: Int
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86_400
            default: return .failure(HintDraftError("\"\(text)\" is not a delay such as 90s, 10m, 1h30m or 2d"))
            }
            guard let value = Int(number), value <= Page.maximumHintDelay else {
                return .failure(HintDraftError("\"\(text)\" is not a delay such as 90s, 10m, 1h30m or 2d"))
            }
            total += value * unit
            number = ""
            sawUnit = true
            if total > Page.maximumHintDelay { break }
        }
        guard number.isEmpty, sawUnit else {
            return .failure(HintDraftError("\"\(text)\" has no unit; write it as 90s, 10m, 1h30m or 2d"))
        }
        guard (1...Page.maximumHintDelay).contains(total) else {
            return .failure(HintDraftError("a hint's delay is 1 s to 30 days, not \(text)"))
        }
        return .success(total)
    }

    /// Reads a cost: a whole number of points from 0.
    package static func cost(_ text: String) -> Result<Int, HintDraftError> {
        guard let value = Int(text.trimmingSpaces()), (0...Page.maximumHintCost).contains(value) else {
            return .failure(
                HintDraftError(
                    "a hint's cost is a whole number of points from 0 to \(Page.maximumHintCost), not \"\(text)\""))
        }
        return .success(value)
    }
}

/// Why a hint's delay or cost was refused, in a sentence.
package struct HintDraftError: Error, Hashable, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
