import CSodium
import FoundationEssentials

/// A line of Mosquitto's password file, as `mosquitto_passwd` of Mosquitto 2 writes it (docs/HUNTS.md "Broker"):
/// `USER:$7$ITERATIONS$SALT$HASH`, the hash PBKDF2 with HMAC-SHA512 of the password over a random salt of 12 bytes,
/// 101 iterations (mosquitto_passwd's own), both in base64. `hunt create` and `hunt team add` print it, so that the
/// broker's file can be written without `mosquitto_passwd` at hand (README "A first hunt").
package enum MosquittoPassword {
    /// mosquitto_passwd's count of iterations.
    package static let iterations = 101

    /// The line for `user` with `password`, salted with `salt` (a fresh one unless given: a test's).
    package static func line(user: String, password: String, salt: [UInt8] = Sealer.randomBytes(12)) -> String {
        let hash = pbkdf2(Array(password.utf8), salt: salt, iterations: iterations)
        return "\(user):$7$\(iterations)$\(Data(salt).base64EncodedString())$\(Data(hash).base64EncodedString())"
    }

    /// PBKDF2 with HMAC-SHA512 (RFC 8018), one block of 64 bytes: the length Mosquitto keeps.
    package static func pbkdf2(_ password: [UInt8], salt: [UInt8], iterations: Int) -> [UInt8] {
        var block = hmac(key: password, salt + [0, 0, 0, 1])
        var derived = block
        for _ in 1..<max(iterations, 1) {
            block = hmac(key: password, block)
            for index in derived.indices { derived[index] ^= block[index] }
        }
        return derived
    }

    static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        Sealer.initialize()
        var state = crypto_auth_hmacsha512_state()
        _ = crypto_auth_hmacsha512_init(&state, key, key.count)
        _ = crypto_auth_hmacsha512_update(&state, message, UInt64(message.count))
        var out = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha512_BYTES))
        _ = crypto_auth_hmacsha512_final(&state, &out)
        return out
    }
}
