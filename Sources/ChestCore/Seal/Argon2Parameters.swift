/// The cost parameters of an Argon2id PIN hash in libsodium's encoded form,
/// `$argon2id$v=19$m=KIB,t=PASSES,p=LANES$SALT$HASH`, and the caps a message's hash must keep.
///
/// A message is untrusted input and checking a PIN runs its hash's parameters: without caps one file could make
/// chestd allocate gigabytes or hash for ever (docs/DESIGN.md "Reliability and security").
package struct Argon2Parameters: Hashable, Sendable {
    /// Memory in KiB.
    package var memory: UInt64
    /// Passes over the memory.
    package var iterations: UInt64
    package var lanes: UInt64

    /// Twice libsodium's interactive limits (64 MiB, 2 passes), which `chest compose` uses.
    package static let maximumMemory: UInt64 = 128 * 1024
    package static let maximumIterations: UInt64 = 4
    /// libsodium hashes with one lane only.
    package static let maximumLanes: UInt64 = 1

    /// Parses and checks `hash`; the error says which parameter is missing or over its cap.
    package init(validating hash: String) throws(Refusal) {
        let fields = hash.split(separator: "$", omittingEmptySubsequences: false)
        // "", "argon2id", "v=19", "m=…,t=…,p=…", salt, hash
        guard fields.count == 6, fields[0].isEmpty, fields[1] == "argon2id" else {
            throw Refusal("not an Argon2id hash")
        }
        guard fields[2] == "v=19" else { throw Refusal("Argon2 version \(fields[2]) is not 19") }
        var values: [Substring: UInt64] = [:]
        for pair in fields[3].split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].utf8.count <= 20, parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let value = UInt64(parts[1]), values.updateValue(value, forKey: parts[0]) == nil
            else {
                throw Refusal("the parameters \"\(fields[3])\" are not m=…,t=…,p=…")
            }
        }
        guard values.count == 3, let memory = values["m"], let iterations = values["t"], let lanes = values["p"] else {
            throw Refusal("the parameters \"\(fields[3])\" are not m=…,t=…,p=…")
        }
        guard (8...Self.maximumMemory).contains(memory) else {
            throw Refusal("its memory cost m=\(memory) KiB is outside 8...\(Self.maximumMemory)")
        }
        guard (1...Self.maximumIterations).contains(iterations) else {
            throw Refusal("its time cost t=\(iterations) is outside 1...\(Self.maximumIterations)")
        }
        guard (1...Self.maximumLanes).contains(lanes) else {
            throw Refusal("its parallelism p=\(lanes) is outside 1...\(Self.maximumLanes)")
        }
        guard !fields[4].isEmpty, !fields[5].isEmpty else { throw Refusal("its salt or hash is missing") }
        self.memory = memory
        self.iterations = iterations
        self.lanes = lanes
    }

    /// Why a PIN hash is refused.
    package struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }
}
