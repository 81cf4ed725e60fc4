import Foundation

/// What it costs whoever has a file to find a sealed set's key by trying every cell and PIN (docs/SECURITY.md).
public struct BruteForce: Hashable, Sendable {
    /// The area searched for a sealed location, in square metres.
    public static let searchArea = 1_000_000.0

    /// Guesses to try them all.
    public var guesses: Double
    public var secondsPerGuess: Double
    public var byLocation: Bool
    public var byPIN: Bool

    /// A set's worst case: every cell of `searchArea` (cells of `cellWidth` metres) times every PIN of `pinDigits`.
    public init(cellWidth: Double?, pinDigits: Int?, cost: SealCost) {
        let cells = cellWidth.map { max(1, Self.searchArea / ($0 * $0)) } ?? 1
        let pins = pinDigits.map { pow(10, Double($0)) } ?? 1
        guesses = cells * pins
        secondsPerGuess = cost.secondsPerGuess
        byLocation = cellWidth != nil
        byPIN = pinDigits != nil
    }

    public var coreHours: Double { guesses * secondsPerGuess / 3600 }

    /// "sealed by location and PIN: about 1,400 core-hours to search 1 km² by brute force"
    public var sentence: String {
        let how = [byLocation ? "location" : nil, byPIN ? "PIN" : nil].compactMap { $0 }.joined(separator: " and ")
        let what = byLocation ? "to search 1 km²" : "to try every PIN"
        return "sealed by \(how): about \(Self.hours(coreHours)) \(what) by brute force"
    }

    static func hours(_ hours: Double) -> String {
        if hours < 1 { return "\(max(1, Int((hours * 60).rounded()))) core-minutes" }
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.maximumFractionDigits = 0
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.usesGroupingSeparator = true
        formatter.groupingSeparator = ","
        return "\(formatter.string(from: NSNumber(value: hours.rounded())) ?? "\(Int(hours))") core-hours"
    }
}
