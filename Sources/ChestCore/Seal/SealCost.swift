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

    /// The named levels `compose --seal-cost` offers to override the defaults: libsodium's INTERACTIVE, MODERATE and
    /// SENSITIVE.
    public enum Level: String, CaseIterable, Sendable {
        case interactive, moderate, sensitive

        public var cost: SealCost {
            switch self {
            case .interactive: SealCost(passes: 2, memory: 64 << 20)
            case .moderate: SealCost(passes: 3, memory: 256 << 20)
            case .sensitive: SealCost(passes: 4, memory: 1 << 30)
            }
        }
    }

    /// What a sealed set's key is made of, which decides what a guess should cost (docs/SECURITY.md "Costs that fit
    /// the secret"): a PIN is tried rarely, so each guess may cost seconds; a place is tried in every new cell the
    /// reader walks into, so less; a place sealed with a PIN is tried only once its PIN is entered, in the cells the
    /// reader settles in, so it may cost what a PIN does and more; a release key is 256 random bits and needs no
    /// stretching; an answer is tried as rarely as a PIN and is as small a secret, so it costs what a PIN does, alone
    /// or with a place.
    public enum Secret: String, CaseIterable, Sendable {
        case pin, place, placeAndPIN, release, answer, placeAndAnswer

        /// The default parameters, measured on the reference machine by scripts/seal-cost.sh to meet docs/SECURITY.md's
        /// targets against the best attack (`BruteForce`): a 4-digit PIN at least 5 core-hours; a 30 m place over
        /// the default area at least 30 core-days; a 30 m place with a 4-digit PIN over 1 km² at least 30 core-days
        /// on format 4's finer cells (docs/SECURITY.md "Costs that fit the secret": about 32).
        public var cost: SealCost {
            switch self {
            case .pin, .answer: SealCost(passes: 5, memory: 1 << 30)
            case .place: SealCost(passes: 4, memory: 768 << 20)
            case .placeAndPIN, .placeAndAnswer: SealCost(passes: 6, memory: 1 << 30)
            case .release: Level.interactive.cost
            }
        }
    }

    /// The cost of a set holding `secret` unless the organiser chose a level.
    public static func `default`(for secret: Secret, level: Level? = nil) -> SealCost { level?.cost ?? secret.cost }

    /// Seconds of one core per guess (a derivation and a failed unwrap), measured by scripts/seal-cost.sh on the
    /// reference machine (docs/BENCHMARKS.md "Sealed pages (format 3)"); the attack tests and `compose`'s figures
    /// use them.
    static let measuredSeconds: [SealCost: Double] = [
        Level.interactive.cost: 0.05,
        Level.moderate.cost: 0.33,
        Level.sensitive.cost: 1.72,
        Secret.pin.cost: 2.15,
        Secret.place.cost: 1.38,
        // 1.15 × the PIN's: the ratio of the two measured side by side under load (docs/BENCHMARKS.md, issue 36);
        // passes × memory would say 2.58. The lower is the attack's figure.
        Secret.placeAndPIN.cost: 2.47,
    ]

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

    /// Seconds per guess, as measured; scaled by memory × passes from the nearest measured cost for others.
    public var secondsPerGuess: Double {
        if let measured = Self.measuredSeconds[self] { return measured }
        // Argon2id's time is linear in passes at one memory size; across sizes caches make it less so.
        let base = Self.measuredSeconds.keys.min { a, b in
            (a.memory == memory ? 0 : 1, abs(a.passes - passes), a.passes) < (b.memory == memory ? 0 : 1, abs(b.passes - passes), b.passes)
        } ?? Level.interactive.cost
        return Self.measuredSeconds[base]! * Double(passes * memory) / Double(base.passes * base.memory)
    }

    /// "t=2, m=64 MiB"
    public var description: String {
        memory % (1 << 20) == 0 ? "t=\(passes), m=\(memory >> 20) MiB" : "t=\(passes), m=\(memory >> 10) KiB"
    }
}
