import CSodium
import ChestCore
import ChestIO
import FoundationEssentials
import Glibc

/// Ed25519 seals and Argon2id PIN hashes, through libsodium.
package enum Sealer {
    /// The corresponding C function is `sodium_init`; safe to call repeatedly from any thread.
    static func initialize() {
        precondition(sodium_init() >= 0, "libsodium could not initialise")
    }

    /// Signs the message's sealed content with `identity`, returning the message with its seal.
    package static func seal(_ message: Message, with identity: Identity) -> Message {
        initialize()
        var sealed = message
        sealed.seal = Seal(publicKey: identity.publicKey, signature: [UInt8](repeating: 0, count: 64))
        let bytes = [UInt8](MessageFile.signedBytes(of: sealed))
        var signature = [UInt8](repeating: 0, count: Int(crypto_sign_BYTES))
        _ = crypto_sign_detached(&signature, nil, bytes, UInt64(bytes.count), identity.secretKey)
        sealed.seal?.signature = signature
        return sealed
    }

    /// Checks a decoded message's signature. The corresponding C function is `crypto_sign_verify_detached`.
    package static func verify(_ message: Message) throws(MessageFormatError) {
        initialize()
        guard let seal = message.seal else { throw .unsealed }
        let bytes = [UInt8](MessageFile.signedBytes(of: message))
        let result = crypto_sign_verify_detached(seal.signature, bytes, UInt64(bytes.count), seal.publicKey)
        guard result == 0 else { throw .signatureMismatch }
    }

    /// A salted Argon2id hash of a PIN in libsodium's encoded form ("$argon2id$v=19$m=…").
    /// The corresponding C function is `crypto_pwhash_str`.
    package static func hashPIN(_ pin: String) -> String {
        initialize()
        var out = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        let result = crypto_pwhash_str(
            &out, pin, UInt64(pin.utf8.count), UInt64(crypto_pwhash_OPSLIMIT_INTERACTIVE),
            Int(crypto_pwhash_MEMLIMIT_INTERACTIVE))
        precondition(result == 0, "crypto_pwhash_str ran out of memory")
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `pin` matches an encoded Argon2id hash. The corresponding C function is `crypto_pwhash_str_verify`.
    package static func pin(_ pin: String, matches hash: String) -> Bool {
        initialize()
        // A hash that slipped past the message checks must still not cost gigabytes or hours.
        guard (try? Argon2Parameters(validating: hash)) != nil else { return false }
        return crypto_pwhash_str_verify(hash, pin, UInt64(pin.utf8.count)) == 0
    }

    /// `count` random bytes. The corresponding C function is `randombytes_buf`.
    package static func randomBytes(_ count: Int) -> [UInt8] {
        initialize()
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }
}

/// This user's Ed25519 key pair, made on first use and kept in the config directory with mode 0600.
package struct Identity: Sendable {
    package let publicKey: [UInt8]
    let secretKey: [UInt8]

    /// The file's name in the config directory.
    package static let fileName = Settings.identityFileName

    /// Reads the key pair at `path`, or makes and stores a new one when there is none.
    package static func loadOrCreate(at path: String) throws -> Identity {
        if let identity = try load(at: path) { return identity }
        Sealer.initialize()
        var publicKey = [UInt8](repeating: 0, count: Int(crypto_sign_PUBLICKEYBYTES))
        var secretKey = [UInt8](repeating: 0, count: Int(crypto_sign_SECRETKEYBYTES))
        crypto_sign_keypair(&publicKey, &secretKey)
        let file = File(
            publicKey: Data(publicKey).base64EncodedString(), secretKey: Data(secretKey).base64EncodedString())
        try Directory.create(directoryName(path))
        try AtomicFile.write(try JSONEncoder().encode(file), to: path)
        return Identity(publicKey: publicKey, secretKey: secretKey)
    }

    /// Reads the key pair at `path`; nil when there is no file.
    package static func load(at path: String) throws -> Identity? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        guard let file = try? JSONDecoder().decode(File.self, from: data),
            let publicKey = Data(base64Encoded: file.publicKey), publicKey.count == 32,
            let secretKey = Data(base64Encoded: file.secretKey), secretKey.count == 64
        else {
            throw ChestError(
                "\(path) is not a chest identity; restore it from your backup or move it away to make a new one")
        }
        return Identity(publicKey: [UInt8](publicKey), secretKey: [UInt8](secretKey))
    }

    /// The public key in base64, as message files carry it.
    package var publicKeyBase64: String { Data(publicKey).base64EncodedString() }

    private struct File: Codable {
        var publicKey: String
        var secretKey: String
    }
}
