/// The Argon2id parameters of one key slot: passes and memory (docs/FORMAT.md "Key slots", docs/SECURITY.md).
public struct SealCost: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Passes over memory (libsodium's `opslimit`).
    public var passes: Int
    /// Memory in bytes (libsodium's `memlimit`).
    public var memory: Int

    public init(passes: Int, memory: Int) {
        self.passes = passes
        self.memory = memory
    }

    /// The named levels `compose --seal-cost` offers: libsodium's INTERACTIVE, MODERATE and SENSITIVE.
    public enum Level: String, CaseIterable, Sendable {
        case interactive, moderate, sensitive

        public var cost: SealCost {
            switch self {
            case .interactive: SealCost(passes: 2, memory: 64 << 20)
            case .moderate: SealCost(passes: 3, memory: 256 << 20)
            case .sensitive: SealCost(passes: 4, memory: 1 << 30)
            }
        }

        /// Seconds of one core per guess, measured by scripts/seal-cost.sh (docs/SECURITY.md).
        public var secondsPerGuess: Double {
            switch self {
            case .interactive: 0.08
            case .moderate: 0.51
            case .sensitive: 2.89
            }
        }
    }

    /// What `compose` uses unless told: a walk past many sealed locks stays within the reader's budget
    /// (docs/SECURITY.md "The reader's cost").
    public static let defaultLevel = Level.interactive

    /// The most a reader's chestd spends on one guess: more is refused, so a file cannot make it swap or stall.
    public static let maximum = SealCost(passes: 8, memory: 1 << 30)
    /// libsodium's minimums for Argon2id.
    public static let minimum = SealCost(passes: 1, memory: 8 << 10)

    /// Why a reader refuses these parameters, or nil.
    public var problem: String? {
        if passes > Self.maximum.passes || memory > Self.maximum.memory {
            return "Argon2id parameters \(self) exceed the reader's cap of \(Self.maximum)"
        }
        if passes < Self.minimum.passes || memory < Self.minimum.memory {
            return "Argon2id parameters \(self) are under libsodium's minimum of \(Self.minimum)"
        }
        return nil
    }

    /// The named level these parameters are, if any.
    public var level: Level? { Level.allCases.first { $0.cost == self } }

    /// Seconds per guess, from the measured levels; scaled by memory × passes for others.
    public var secondsPerGuess: Double {
        if let level { return level.secondsPerGuess }
        let base = Level.interactive
        return base.secondsPerGuess * Double(passes * memory) / Double(base.cost.passes * base.cost.memory)
    }

    /// "t=2, m=64 MiB"
    public var description: String {
        memory % (1 << 20) == 0 ? "t=\(passes), m=\(memory >> 20) MiB" : "t=\(passes), m=\(memory >> 10) KiB"
    }
}
