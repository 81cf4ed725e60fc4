import CSodium
import ChestCore
import Foundation

/// Format 2's cryptography (docs/FORMAT.md "Format 2"): XChaCha20-Poly1305 (IETF) for the content and the
/// wrapped keys, Argon2id (`crypto_pwhash`, ALG_ARGON2ID13) for the keys of sealed sets.
public enum PageSealer {
    /// One lock set as `compose` has it: the locks the file shows, and the secrets its key is made of.
    public struct SetDraft: Sendable {
        public var locks: [Lock]
        public var hidden: HiddenLocation?
        public var pin: String?
        /// A release's name and key (base64), from the organiser's hunt file.
        public var release: (name: String, key: String)?

        public init(locks: [Lock], hidden: HiddenLocation? = nil, pin: String? = nil) {
            self.locks = locks
            self.hidden = hidden
            self.pin = pin
        }

        var isSealed: Bool { hidden != nil || pin != nil || release != nil }

        /// The organiser's secret string: the target's own cell, the PIN and the release key.
        func secret() -> String? {
            let grid = locks.lazy.compactMap { if case let .sealedLocation(grid) = $0 { grid } else { nil } }.first
            guard isSealed else { return nil }
            return SealSecret.secret(cell: hidden.flatMap { hidden in grid.map { $0.cell(of: hidden.center) } }, pin: pin,
                                     release: release)
        }
    }

    /// Encrypts a page's text and hidden points under a new random key and stores that key once per set.
    /// `pageKey`: the key to seal under, when the caller keeps it (`compose --hunt` records it for proofs).
    public static func seal(text: String, setA: SetDraft, setB: SetDraft, id: MessageID, page: Int,
                            cost: SealCost, pageKey: [UInt8]? = nil) -> Page {
        Sealer.initialize()
        let key = pageKey ?? Sealer.randomBytes(SealedPage.keyBytes)
        let content = SealedContent(text: text, a: setA.hidden, b: setB.hidden)
        let ciphertext = encrypt(content.plaintext(), key: key, data: SealSecret.contentData(id, page: page))
        var slots: [LockSetName: KeySlot] = [:]
        for (name, set) in [(LockSetName.a, setA), (.b, setB)] {
            let lockless = setA.locks.isEmpty && setB.locks.isEmpty && name == .a
            guard !set.locks.isEmpty || lockless else { continue }
            guard let secret = set.secret() else {
                slots[name] = .guarded(key: key)
                continue
            }
            let salt = Sealer.randomBytes(SealedPage.saltBytes)
            let kek = derive(secret, salt: salt, cost: cost)!
            slots[name] = .sealed(salt: salt, cost: cost,
                                  wrapped: encrypt(key, key: kek, data: SealSecret.slotData(id, page: page, set: name)))
        }
        return Page(text: "", setA: setA.locks, setB: setB.locks,
                    sealed: SealedPage(ciphertext: ciphertext, slots: slots))
    }

    /// Tries one request: derive, unwrap, decrypt, decode. Runs on the seal worker's thread, never the loop.
    public static func open(_ request: KeyRequest) -> KeyResult {
        var pageKey: [UInt8]?
        return open(request, pageKey: &pageKey)
    }

    /// `open`, also giving the page key it recovered (for the proof of opening in receipts, `ReceiptProof`).
    public static func open(_ request: KeyRequest, pageKey: inout [UInt8]?) -> KeyResult {
        Sealer.initialize()
        let key: [UInt8]
        switch request.slot {
        case let .guarded(clear):
            key = clear
        case let .sealed(salt, cost, wrapped):
            guard cost.problem == nil, let secret = request.secret else { return .damaged("over the cost cap") }
            guard let kek = derive(secret, salt: salt, cost: cost) else { return .damaged("Argon2id ran out of memory") }
            guard let unwrapped = decrypt(wrapped, key: kek, data: request.slotData),
                  unwrapped.count == SealedPage.keyBytes else { return .wrong }
            key = unwrapped
        }
        pageKey = key
        guard let plaintext = decrypt(request.ciphertext, key: key, data: request.contentData) else {
            return .damaged("the page key does not open this page's ciphertext")
        }
        guard let content = SealedContent.decode(plaintext) else { return .damaged("the page's content is not readable") }
        return .opened(content)
    }

    /// Why a format 2 message cannot be taken in although its signature holds: a guard whose key does not open
    /// its page (a ciphertext swapped between pages or messages). Sealed sets can only be checked by their secret.
    public static func checkGuards(_ message: Message) -> String? {
        for (index, page) in message.pages.enumerated() {
            guard let sealed = page.sealed else { continue }
            for set in LockSetName.allCases {
                guard case .guarded = sealed.slots[set] else { continue }
                let request = KeyRequest(id: message.id, page: index + 1, set: set, secret: nil, slot: sealed.slots[set]!,
                                         ciphertext: sealed.ciphertext, cell: nil, pin: nil)
                if case let .damaged(why) = open(request) { return "page \(index + 1), set \(set.rawValue): \(why)" }
            }
        }
        return nil
    }

    /// Argon2id of the secret string; nil when libsodium could not get the memory.
    static func derive(_ secret: String, salt: [UInt8], cost: SealCost) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: SealedPage.keyBytes)
        let result = crypto_pwhash(&out, UInt64(out.count), secret, UInt64(secret.utf8.count), salt, UInt64(cost.passes),
                                   Int(cost.memory), crypto_pwhash_ALG_ARGON2ID13)
        return result == 0 ? out : nil
    }

    /// nonce ‖ ciphertext ‖ tag.
    static func encrypt(_ message: [UInt8], key: [UInt8], data: String) -> [UInt8] {
        let nonce = Sealer.randomBytes(SealedPage.nonceBytes)
        let ad = Array(data.utf8)
        var out = [UInt8](repeating: 0, count: message.count + SealedPage.tagBytes)
        var length: UInt64 = 0
        _ = crypto_aead_xchacha20poly1305_ietf_encrypt(&out, &length, message, UInt64(message.count), ad, UInt64(ad.count),
                                                       nil, nonce, key)
        return nonce + out.prefix(Int(length))
    }

    static func decrypt(_ sealed: [UInt8], key: [UInt8], data: String) -> [UInt8]? {
        let overhead = SealedPage.nonceBytes + SealedPage.tagBytes
        guard sealed.count >= overhead, key.count == SealedPage.keyBytes else { return nil }
        let nonce = Array(sealed.prefix(SealedPage.nonceBytes)), body = Array(sealed.dropFirst(SealedPage.nonceBytes))
        let ad = Array(data.utf8)
        var out = [UInt8](repeating: 0, count: body.count - SealedPage.tagBytes)
        var length: UInt64 = 0
        let result = crypto_aead_xchacha20poly1305_ietf_decrypt(&out, &length, nil, body, UInt64(body.count), ad,
                                                                UInt64(ad.count), nonce, key)
        return result == 0 ? Array(out.prefix(Int(length))) : nil
    }
}
