import Foundation

/// What it costs whoever has a file to find a sealed set's key by the best attack known on format 3: trying every
/// cell of the declared search area (and every PIN, with a PIN in the set), one Argon2id run a guess
/// (docs/SECURITY.md "What a place is worth"). The attack tests check that the file offers nothing better.
public struct BruteForce: Hashable, Sendable {
    /// Cells to search: the search area over the cell's area; 1 without a place.
    public var cells: Double
    /// PINs to try: 10^digits; 1 without a PIN.
    public var pins: Double
    public var secondsPerGuess: Double
    /// The declared search area, when the set holds a place.
    public var area: SearchArea?

    /// A set's worst case: every cell of the grid's search area times every PIN of `pinDigits`.
    public init(grid: CellGrid?, pinDigits: Int?, cost: SealCost) {
        area = grid?.area
        cells = grid.map { grid in max(1, (grid.area?.area ?? 1_000_000) / (grid.width * grid.width)) } ?? 1
        pins = pinDigits.map { pow(10, Double($0)) } ?? 1
        secondsPerGuess = cost.secondsPerGuess
    }

    public var guesses: Double { cells * pins }
    public var coreHours: Double { guesses * secondsPerGuess / 3600 }

    /// "sealed by location and PIN: about 94,000 core-hours to search the declared area (38.71390,-9.13340/2 km:
    /// 3,140 cells × 10,000 PINs at 1.38 s a guess)"
    public var sentence: String {
        let byPlace = area != nil, byPIN = pins > 1
        let how = [byPlace ? "location" : nil, byPIN ? "PIN" : nil].compactMap { $0 }.joined(separator: " and ")
        let what = byPlace ? "to search the declared area" : "to try every PIN"
        var factors: [String] = []
        if let area { factors.append("\(Self.grouped(cells)) cells of \(area)") }
        if byPIN { factors.append("\(Self.grouped(pins)) PINs") }
        let detail = "\(factors.joined(separator: " × ")) at \(String(format: "%.2f", secondsPerGuess)) s a guess"
        let advice = byPlace && !byPIN && coreHours < 30 * 24
            ? "; a place alone is a small secret (docs/SECURITY.md): add a PIN to its set or declare a wider --search-area" : ""
        return "sealed by \(how): about \(Self.time(coreHours)) \(what) by brute force (\(detail))" + advice
    }

    static func time(_ hours: Double) -> String {
        if hours < 1 { return "\(max(1, Int((hours * 60).rounded()))) core-minutes" }
        if hours >= 48 { return "\(grouped(hours / 24)) core-days" }
        return "\(grouped(hours)) core-hours"
    }

    static func grouped(_ value: Double) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.maximumFractionDigits = 0
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.usesGroupingSeparator = true
        formatter.groupingSeparator = ","
        return formatter.string(from: NSNumber(value: value.rounded())) ?? "\(Int(value))"
    }
}
