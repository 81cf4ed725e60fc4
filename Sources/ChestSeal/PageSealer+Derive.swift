import CSodium
import ChestCore
import ChestIO
import Dispatch
import FoundationEssentials
import Synchronization

/// Argon2id, the cost of a sealed set's key (docs/FORMAT.md "Format 2"): every secret at once, and a key's lanes on
/// threads of their own.
extension PageSealer {
    /// Argon2id of each secret, on every core at once: a place's four cells cost the organiser the time of two. Keys
    /// in lanes take a core a lane, so fewer run at once (`SealCost.runsAtOnce`), and the memory held stays one
    /// derivation's per core.
    static func deriveAll(_ secrets: [String], salt: [UInt8], cost: SealCost) -> [[UInt8]] {
        let keys = Mutex([[UInt8]?](repeating: nil, count: secrets.count))
        let slots = DispatchSemaphore(value: cost.runsAtOnce(cores: ProcessInfo.processInfo.activeProcessorCount))
        DispatchQueue.concurrentPerform(iterations: secrets.count) { index in
            slots.wait()
            defer { slots.signal() }
            let key = derive(secrets[index], salt: salt, cost: cost)
            keys.withLock { $0[index] = key }
        }
        // A run that could not get its memory alongside the others tries again alone.
        return keys.withLock { $0 }.enumerated().map { index, key in
            guard let key = key ?? derive(secrets[index], salt: salt, cost: cost) else {
                preconditionFailure("Argon2id could not get \(cost.memory >> 20) MiB of memory")
            }
            return key
        }
    }

    /// Argon2id of the secret string; nil when libsodium could not get the memory. With lanes (format 5), one run
    /// per lane side by side, each on its own thread and salted with its lane's number, and the key is BLAKE2b of
    /// their results in order (docs/FORMAT.md "Format 5").
    static func derive(_ secret: String, salt: [UInt8], cost: SealCost) -> [UInt8]? {
        guard cost.lanes > 1 else { return argon2id(secret, salt: salt, cost: cost) }
        let lanes = LaneResults(count: cost.lanes)
        for lane in 1..<cost.lanes {
            // A thread of its own: the caller's is the seal worker's or compose's, never the async pool's.
            OSThread.start(name: "chest-argon2id") {
                lanes.finish(lane, argon2id(secret, salt: laneSalt(salt, lane: lane), cost: cost))
            }
        }
        lanes.finish(0, argon2id(secret, salt: laneSalt(salt, lane: 0), cost: cost))
        let keys = lanes.wait().compactMap { $0 }
        guard keys.count == cost.lanes else { return nil }
        return blake2b(keys.flatMap { $0 }, count: SealedPage.keyBytes)
    }

    /// One lane's salt: BLAKE2b-128 of the slot's salt and the lane's number as one byte.
    static func laneSalt(_ salt: [UInt8], lane: Int) -> [UInt8] {
        blake2b(salt + [UInt8(truncatingIfNeeded: lane)], count: SealedPage.saltBytes)
    }

    static func blake2b(_ input: [UInt8], count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        _ = crypto_generichash(&out, count, input, UInt64(input.count), nil, 0)
        return out
    }

    /// One Argon2id run (`crypto_pwhash`, ALG_ARGON2ID13) at `cost`'s passes and memory.
    static func argon2id(_ secret: String, salt: [UInt8], cost: SealCost) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: SealedPage.keyBytes)
        let result = crypto_pwhash(
            &out, UInt64(out.count), secret, UInt64(secret.utf8.count), salt, UInt64(cost.passes),
            Int(cost.memory), crypto_pwhash_ALG_ARGON2ID13)
        return result == 0 ? out : nil
    }
}

/// The keys of a derivation's lanes, filled in by their threads.
private final class LaneResults: Sendable {
    private let keys: Mutex<[[UInt8]?]>
    private let done = DispatchSemaphore(value: 0)
    private let count: Int

    init(count: Int) {
        self.count = count
        keys = Mutex([[UInt8]?](repeating: nil, count: count))
    }

    func finish(_ lane: Int, _ key: [UInt8]?) {
        keys.withLock { $0[lane] = key }
        done.signal()
    }

    /// Every lane's key in order, once all have finished (nil where libsodium could not get the memory).
    func wait() -> [[UInt8]?] {
        for _ in 0..<count { done.wait() }
        return keys.withLock { $0 }
    }
}
