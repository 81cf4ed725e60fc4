import FoundationEssentials
import Glibc

/// What it costs whoever has a file to find a sealed set's key by the best attack known against the file as written,
/// one Argon2id run a guess (docs/SECURITY.md "What a place is worth"):
///
/// - formats 3 to 5: the lattice sweep. A place's keys cover a 2 × 2 block of cells (the cell width is the place's
///   stretched diameter), and every 2 × 2 block holds exactly one cell with both indices even, so trying those cells
///   only, a quarter of the area's, finds it (99 % of places; the rest sit on a single row or column). A place sealed
///   with a PIN has cells half as wide and a 3 × 3 block in format 4, a third as wide and a 4 × 4 block in format 5:
///   the lattice is the cells with both indices divisible by the block's side, one in block² of the finer cells. With
///   a PIN, every PIN in each of those cells;
/// - format 2: the place comes out of the file (the typed-decimal attack, milliseconds), so only the PIN is left.
///
/// A sweep is shared: every place laid on one grid (same salt and cost) falls to the same derivations, so its figure
/// is that of the whole group, not each page's (`Composer`'s "share one search" line). The attack tests run the
/// lattice and shared sweeps and check them against these figures.
package struct BruteForce: Hashable, Sendable {
    /// Cells of the search area (of the union of `swept`): its area over a cell's on the ground; 1 without a place.
    package var cells: Double
    /// Cells the best attack derives a key for: one in block² of the area's; 1 when the place is recoverable or absent.
    package var searched: Double
    /// PINs to try: 10^digits; 1 without a PIN.
    package var pins: Double
    package var secondsPerGuess: Double
    /// The search area, when the set holds a place of format 3 or later.
    package var area: SearchArea?
    /// A format 2 place: the file gives it away.
    package var recoverable: Bool

    /// The side of the key block (`CellGrid.keyBlock`): the lattice sweep tries one cell in block².
    package var block: Int

    /// A set's figure: the cells of the grid's search area the lattice meets (formats 3 to 5, whose `version` says
    /// how large a key block is) times every PIN of `pinDigits`; a format 2 grid (no area) is recoverable and leaves
    /// the PIN only. `swept`: the areas of every place on the grid, when the figure is for all of them (one sweep of
    /// their union opens them all).
    package init(
        grid: CellGrid?, pinDigits: Int?, cost: SealCost, version: Int = MessageFile.baseVersion,
        swept: [SearchArea]? = nil
    ) {
        recoverable = grid != nil && grid?.area == nil
        area = grid?.area
        block = CellGrid.keyBlock(version: version, withPIN: pinDigits != nil)
        if let grid, let area = grid.area {
            // A cell is w wide north-south and w·cos φ / cos φ0 east-west on the ground: wider than w where the area
            // lies nearer the equator than the grid's reference (a shared default grid, `DefaultGrids`).
            let ground = cos(area.latitude * .pi / 180) / grid.cosReference
            cells = max(1, (swept.map(SearchArea.union) ?? area.area) / (grid.width * grid.width * ground))
            searched = max(1, (cells / Double(block * block)).rounded(.up))
        } else {
            cells = 1
            searched = 1
        }
        pins = pinDigits.map { pow(10, Double($0)) } ?? 1
        secondsPerGuess = cost.secondsPerGuess
    }

    package var guesses: Double { searched * pins }
    package var coreHours: Double { guesses * secondsPerGuess / 3600 }

    /// Whether the file holds nothing the attacker must guess: a format 2 place alone.
    package var isOpenToAnyone: Bool { recoverable && pins <= 1 }

    /// "sealed by location and PIN: about 10 core-days by the best attack (the 61 cells of 38.71390,-9.13340/564 m
    /// with both indices even, a quarter of its 244, × 10,000 PINs at 1.38 s a guess)"
    package var sentence: String {
        if recoverable {
            let leak =
                "format 2 gives the place away: it is recovered from the file in milliseconds (docs/SECURITY.md \"Format 2's leak\")"
            guard pins > 1 else { return "guarded only: \(leak); compose in format 3 (the default) to seal it" }
            return "sealed by PIN only (\(leak)): about \(Self.time(coreHours)) to try every PIN by brute force "
                + "(\(Self.grouped(pins)) PINs at \(String(printf: "%.2f", secondsPerGuess)) s a guess)"
        }
        let byPlace = area != nil
        let byPIN = pins > 1
        let how = [byPlace ? "location" : nil, byPIN ? "PIN" : nil].compactMap { $0 }.joined(separator: " and ")
        var factors: [String] = []
        if let area {
            factors.append(
                "the \(Self.grouped(searched)) cells of \(area) \(latticeWords) of its \(Self.grouped(cells))")
        }
        if byPIN { factors.append("\(Self.grouped(pins)) PINs") }
        let detail = "\(factors.joined(separator: " × ")) at \(String(printf: "%.2f", secondsPerGuess)) s a guess"
        let advice =
            !byPlace || coreHours >= 30 * 24
            ? ""
            : byPIN
                ? "; under 30 core-days (docs/SECURITY.md \"What a place is worth\"): declare a wider --search-area"
                : "; a place alone is a small secret (docs/SECURITY.md): add a PIN to its set or declare a wider --search-area"
        return "sealed by \(how): about \(Self.time(coreHours)) by the best attack (\(detail))" + advice
    }

    /// Which cells the lattice sweep tries: "with both indices even, a quarter", or "divisible by 4, one in 16".
    package var latticeWords: String {
        block == 2
            ? "with both indices even, a quarter" : "with both indices divisible by \(block), one in \(block * block)"
    }

    /// "37 core-days", "6 core-hours", "18 core-minutes".
    package static func time(_ hours: Double) -> String {
        if hours < 1 { return "\(max(1, Int((hours * 60).rounded()))) core-minutes" }
        if hours >= 48 { return "\(grouped(hours / 24)) core-days" }
        return "\(grouped(hours)) core-hours"
    }

    /// "1,296"; from 10^15 on, past the integers a Double holds exactly, "1.2 × 10^60" (a phrase of dozens of
    /// words), never a Double's noise as digits; "more than 10^308" past what a Double holds at all.
    package static func grouped(_ value: Double) -> String {
        let sign = value.rounded() < 0 ? "-" : ""
        guard value.rounded().magnitude < 1e15 else { return sign + scientific(value.magnitude) }
        let digits = String(printf: "%.0f", value.rounded().magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return sign + grouped
    }

    /// "1.2 × 10^60": two significant digits and the power of ten.
    static func scientific(_ magnitude: Double) -> String {
        guard magnitude.isFinite else { return "more than 10^308" }
        var exponent = Int(log10(magnitude).rounded(.down))
        var mantissa = magnitude / pow(10, Double(exponent))
        // 9.96 shows as 10.0: carry it into the power.
        if (mantissa * 10).rounded() >= 100 {
            mantissa /= 10
            exponent += 1
        }
        return String(printf: "%.1f × 10^%d", mantissa, exponent)
    }
}
