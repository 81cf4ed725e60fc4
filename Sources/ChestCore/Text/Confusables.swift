/// Unicode's confusable skeleton (UTS #39 "Confusable Detection"), by which a team name that reads as another team's
/// is refused (docs/HUNTS.md "Team names"): "Rеd" with a Cyrillic е has the skeleton of "Red". The mapping is
/// Unicode's confusables.txt, compiled in (`table`, made by scripts/confusables-table.py).
package enum Confusables {
    /// skeleton(X) = NFD(map(NFD(X))): every character of the decomposed text replaced by the prototype
    /// confusables.txt gives it, and the result decomposed again. Two texts with one skeleton are confusable. Case is
    /// kept, as Unicode keeps it: "red" does not read as "Red".
    package static func skeleton(_ text: String) -> String {
        var mapped = String.UnicodeScalarView()
        for scalar in text.canonicallyDecomposed.unicodeScalars {
            if let prototype = mapping[scalar.value] {
                mapped.append(contentsOf: prototype)
            } else {
                mapped.append(scalar)
            }
        }
        return String(mapped).canonicallyDecomposed
    }

    /// The prototype of each character confusables.txt lists, read from `table` at first use.
    static let mapping: [UInt32: [Unicode.Scalar]] = {
        var mapping: [UInt32: [Unicode.Scalar]] = [:]
        for entry in table.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = entry.split(separator: ":")
            guard parts.count == 2, let source = UInt32(parts[0], radix: 16) else { continue }
            mapping[source] = parts[1].split(separator: ",").compactMap {
                UInt32($0, radix: 16).flatMap(Unicode.Scalar.init)
            }
        }
        return mapping
    }()
}
