/// The Argon2id parameters of one key slot: passes, memory and lanes (docs/FORMAT.md "Key slots", "Format 5";
/// docs/SECURITY.md).
package struct SealCost: Hashable, Sendable, CustomStringConvertible {
    /// Passes over memory (libsodium's `opslimit`).
    package var passes: Int
    /// Memory in bytes of each lane (libsodium's `memlimit`).
    package var memory: Int
    /// Independent Argon2id runs whose results make the key, each on its own core (format 5): a guess costs an
    /// attacker every lane's core-time while a reader waits for one lane's (docs/SECURITY.md "Costs that fit the
    /// secret"). 1 in formats 2 to 4.
    package var lanes: Int

    package init(passes: Int, memory: Int, lanes: Int = 1) {
        self.passes = passes
        self.memory = memory
        self.lanes = lanes
    }

    /// Memory held at once while a key derives: every lane's.
    package var totalMemory: Int { memory * lanes }
    /// Argon2id work of one guess, in passes × bytes over all lanes: what `SealBudget` counts.
    package var work: Double { Double(passes) * Double(memory) * Double(lanes) }

    /// The named levels `compose --seal-cost` offers to override the defaults: libsodium's INTERACTIVE, MODERATE and
    /// SENSITIVE.
    package enum Level: String, CaseIterable, Sendable {
        case interactive, moderate, sensitive

        package var cost: SealCost {
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
    package enum Secret: String, CaseIterable, Sendable {
        case pin, place, placeAndPIN, release, answer, placeAndAnswer

        /// The default parameters in the newest format, measured by scripts/seal-cost.sh to meet docs/SECURITY.md's
        /// targets against the best attack (`BruteForce`) at both speeds the reference machine has shown: a 4-digit
        /// PIN at least 5 core-hours; a 30 m place over the default area at least 30 core-days while a reader walking
        /// past 20 places pays under 10 % of a core; a 30 m place with a 4-digit PIN over 1 km² at least 30
        /// core-days on format 5's finer cells; every key under 3 s on an idle 2-core machine (docs/SECURITY.md
        /// "Costs that fit the secret").
        package var cost: SealCost { cost(version: MessageFile.version) }

        /// What a sealed set holding these secrets is made of: a release when it holds no place, PIN or answer.
        package static func of(place: Bool, pin: Bool, answer: Bool) -> Secret {
            place ? (pin ? .placeAndPIN : answer ? .placeAndAnswer : .place) : pin ? .pin : answer ? .answer : .release
        }

        /// The default in `version`: before format 5 a key has one lane, so a PIN's cost is one core's.
        package func cost(version: Int) -> SealCost {
            switch self {
            case .pin, .answer: version >= 5 ? SealCost.twoLanes : SealCost(passes: 5, memory: 1 << 30)
            case .placeAndPIN, .placeAndAnswer: version >= 5 ? SealCost.twoLanes : SealCost(passes: 6, memory: 1 << 30)
            case .place: SealCost(passes: 4, memory: 512 << 20)
            case .release: Level.interactive.cost
            }
        }
    }

    /// Format 5's cost of a key a person unlocks: two runs of 6 passes over 512 MiB, side by side.
    static let twoLanes = SealCost(passes: 6, memory: 512 << 20, lanes: 2)

    /// How many of these derivations run at once on `cores` cores: each lane takes a core.
    package func runsAtOnce(cores: Int) -> Int { max(1, cores / lanes) }

    /// The seconds `runs` derivations take on `cores` cores of an idle machine, run side by side as compose runs
    /// them: what sealing a set costs its organiser.
    package func seconds(runs: Int, cores: Int) -> Double {
        (Double(runs) / Double(runsAtOnce(cores: cores))).rounded(.up) * secondsPerKey
    }

    /// The cost of a set holding `secret` in `version` unless the organiser chose a level.
    package static func `default`(for secret: Secret, level: Level? = nil, version: Int = MessageFile.version)
        -> SealCost
    {
        level?.cost ?? secret.cost(version: version)
    }

    /// Seconds of core-time per guess, every lane's (a derivation and a failed unwrap), measured by
    /// scripts/seal-cost.sh on the reference machine, unloaded, on 2026-11-26 at 21:00 (docs/BENCHMARKS.md "Sealed
    /// pages (format 3)", "Sealed pages (format 3)"); the attack tests and `compose`'s figures use them.
    static let measuredSeconds: [SealCost: Double] = [
        Level.interactive.cost: 0.10,
        Level.moderate.cost: 0.58,
        Level.sensitive.cost: 3.22,
        Secret.pin.cost(version: 4): 3.83,
        Secret.placeAndPIN.cost(version: 4): 4.43,
        Secret.place.cost: 1.55,
        // Two lanes side by side: 2.33–2.38 s of wall time on the idle machine.
        Secret.pin.cost: 4.38,
    ]

    /// The most a reader's chestd spends on one guess: more is refused, so a file cannot make it swap or stall.
    /// `memory` here caps every lane's together (`totalMemory`).
    package static let maximum = SealCost(passes: 8, memory: 1 << 30, lanes: 4)
    /// libsodium's minimums for Argon2id.
    package static let minimum = SealCost(passes: 1, memory: 8 << 10)

    /// Why a reader refuses these parameters, or nil.
    package var problem: String? {
        if passes > Self.maximum.passes || totalMemory > Self.maximum.memory || lanes > Self.maximum.lanes {
            return "Argon2id parameters \(self) exceed the reader's cap of t=\(Self.maximum.passes), "
                + "\(Self.maximum.memory >> 20) MiB over all lanes, \(Self.maximum.lanes) lanes"
        }
        if passes < Self.minimum.passes || memory < Self.minimum.memory || lanes < 1 {
            return "Argon2id parameters \(self) are under libsodium's minimum of \(Self.minimum)"
        }
        return nil
    }

    /// The named level these parameters are, if any.
    package var level: Level? { Level.allCases.first { $0.cost == self } }

    /// Core-seconds per guess, every lane's, as measured; scaled by work (passes × memory × lanes) from the nearest
    /// measured cost for others.
    package var secondsPerGuess: Double {
        if let measured = Self.measuredSeconds[self] { return measured }
        // Argon2id's time is linear in passes at one memory size; across sizes caches make it less so.
        let base =
            Self.measuredSeconds.keys.min { a, b in
                (a.memory == memory ? 0 : 1, abs(a.passes - passes), a.passes) < (
                    b.memory == memory ? 0 : 1, abs(b.passes - passes), b.passes
                )
            } ?? Level.interactive.cost
        return Self.measuredSeconds[base]! * work / base.work
    }

    /// Seconds a reader waits for one key on an idle machine with a core for each lane: one lane's share of the
    /// core-time (the lanes run side by side; they contend a little for memory bandwidth, docs/BENCHMARKS.md).
    package var secondsPerKey: Double { secondsPerGuess / Double(lanes) }

    /// "t=2, m=64 MiB", "t=6, m=512 MiB × 2 lanes"
    package var description: String {
        let size = memory % (1 << 20) == 0 ? "m=\(memory >> 20) MiB" : "m=\(memory >> 10) KiB"
        return "t=\(passes), \(size)" + (lanes > 1 ? " × \(lanes) lanes" : "")
    }
}
