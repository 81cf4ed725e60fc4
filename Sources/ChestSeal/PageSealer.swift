import CSodium
import ChestCore
import ChestIO
import Dispatch
import FoundationEssentials
import Synchronization

/// The cryptography of sealed pages (docs/FORMAT.md "Format 2", "Format 3"): XChaCha20-Poly1305 (IETF) for the
/// content and the wrapped keys, Argon2id (`crypto_pwhash`, ALG_ARGON2ID13) for the keys of sealed sets.
package enum PageSealer {
    /// One lock set as `compose` has it: the locks the file shows, and the secrets its key is made of.
    package struct SetDraft: Sendable {
        package var locks: [Lock]
        package var hidden: SearchArea?
        package var pin: String?
        /// A release's name and key (base64), from the organiser's hunt file.
        package var release: (name: String, key: String)?
        /// Format 3: the Argon2id salt of the place's grid, shared by every place `compose` laid on that grid so a
        /// reader derives a cell's key once for all of them; nil draws one.
        package var gridSalt: [UInt8]?
        /// An answer lock's accepted answers, normalised (`AnswerText.alternatives`): the key is wrapped under each.
        package var answers: [String] = []
        /// The Argon2id cost of this set's key; nil for the default of what the set holds (`SealCost.Secret`).
        package var cost: SealCost?

        package init(locks: [Lock], hidden: SearchArea? = nil, pin: String? = nil) {
            self.locks = locks
            self.hidden = hidden
            self.pin = pin
        }

        var isSealed: Bool { hidden != nil || pin != nil || release != nil || !answers.isEmpty }

        /// The sealed location's grid, if the set holds one.
        package var grid: CellGrid? {
            locks.lazy.compactMap { if case let .sealedLocation(grid) = $0 { grid } else { nil } }.first
        }

        /// What the set's secret is made of, which prices its guesses.
        package var secretKind: SealCost.Secret {
            .of(place: hidden != nil, pin: pin != nil, answer: !answers.isEmpty)
        }

        /// The cost its key is derived at.
        package var effectiveCost: SealCost { cost ?? secretKind.cost }

        /// How many Argon2id runs sealing this set costs: one per secret string.
        package func derivations(version: Int) -> Int { secrets(version: version).count }

        /// The organiser's secret strings: one per cell the place's disk touches (format 3), or the target's own
        /// cell (format 2), with the PIN and the release key.
        func secrets(version: Int) -> [String] {
            guard isSealed else { return [] }
            // An answer lock: one secret per answer, with each cell of the place when the set has one.
            let answers: [String?] = self.answers.isEmpty ? [nil] : self.answers
            guard let hidden, let grid else {
                return answers.map {
                    SealSecret.secret(cell: nil, pin: pin, release: release, answer: $0, version: version)
                }
            }
            let cells =
                version >= 3
                ? grid.cells(touching: hidden.center, radius: hidden.radius) : [grid.cell(of: hidden.center)]
            return cells.flatMap { cell in
                answers.map { SealSecret.secret(cell: cell, pin: pin, release: release, answer: $0, version: version) }
            }
        }
    }

    /// Encrypts a page's text and hidden points under a new random key and stores that key once per set.
    package static func seal(
        text: String, setA: SetDraft, setB: SetDraft, id: MessageID, page: Int,
        cost: SealCost? = nil, version: Int = MessageFile.baseVersion
    ) -> Page {
        sealed(text: text, setA: setA, setB: setB, id: id, page: page, cost: cost, version: version).page
    }

    /// `seal`, with the page key it drew.
    /// `files` travel with the page's content, sealed alike (docs/FORMAT.md "Attachments"). Format 6 needs the
    /// hunt's `start` key: the slots hold a random inner key, and the page key is `startPageKey` of both.
    package static func sealed(
        text: String, setA: SetDraft, setB: SetDraft, id: MessageID, page: Int,
        cost: SealCost? = nil, version: Int = MessageFile.baseVersion,
        files: [AttachedFile] = [], start: [UInt8]? = nil
    ) -> (page: Page, key: [UInt8]) {
        Sealer.initialize()
        let inner = Sealer.randomBytes(SealedPage.keyBytes)
        var key = inner
        if version >= MessageFile.startVersion {
            guard let start, start.count == SealedPage.keyBytes else {
                preconditionFailure("format 6 needs the hunt's start key")
            }
            key = startPageKey(inner: inner, start: start, id: id, page: page, version: version)
        }
        var content = SealedContent(text: text, a: setA.hidden, b: setB.hidden)
        let attached = files.isEmpty ? nil : AttachmentSealer.seal(files, id: id, page: page, version: version)
        (content.attachments, content.attachmentsKey) = (attached?.attachments, attached?.key)
        let ciphertext = encrypt(
            content.plaintext(), key: key, data: SealSecret.contentData(id, page: page, version: version))
        var slots: [LockSetName: KeySlot] = [:]
        for (name, set) in [(LockSetName.a, setA), (.b, setB)] {
            let lockless = setA.locks.isEmpty && setB.locks.isEmpty && name == .a
            guard !set.locks.isEmpty || lockless else { continue }
            let secrets = set.secrets(version: version)
            guard !secrets.isEmpty else {
                slots[name] = .guarded(key: inner)
                continue
            }
            let cost = cost ?? set.cost ?? set.secretKind.cost(version: version)
            let data = SealSecret.slotData(id, page: page, set: name, version: version)
            if version >= 3, set.hidden != nil {
                let salt = set.gridSalt ?? Sealer.randomBytes(SealedPage.saltBytes)
                var wrapped = deriveAll(secrets, salt: salt, cost: cost).map { encrypt(inner, key: $0, data: data) }
                // Filler the same size as a wrapped key, so the count and order say nothing of where the place lies
                // (nor, with an answer lock, how many answers there are).
                let count = SealedPage.cellSlots(
                    version: version, withPIN: set.pin != nil, withAnswer: !set.answers.isEmpty)
                while wrapped.count < count { wrapped.append(Sealer.randomBytes(SealedPage.wrappedBytes)) }
                slots[name] = .cells(salt: salt, cost: cost, wrapped: shuffled(wrapped))
            } else if !set.answers.isEmpty {
                // One salt for every answer: the reader derives once per attempt; filler hides how many answers there are.
                let salt = Sealer.randomBytes(SealedPage.saltBytes)
                var wrapped = deriveAll(secrets, salt: salt, cost: cost).map { encrypt(inner, key: $0, data: data) }
                while wrapped.count < SealedPage.answerSlots {
                    wrapped.append(Sealer.randomBytes(SealedPage.wrappedBytes))
                }
                slots[name] = .answers(salt: salt, cost: cost, wrapped: shuffled(wrapped))
            } else {
                let salt = Sealer.randomBytes(SealedPage.saltBytes)
                slots[name] = .sealed(
                    salt: salt, cost: cost,
                    wrapped: encrypt(inner, key: derive(secrets[0], salt: salt, cost: cost)!, data: data))
            }
        }
        var sealedPage = Page(
            text: "", setA: setA.locks, setB: setB.locks,
            sealed: SealedPage(ciphertext: ciphertext, slots: slots, version: version))
        sealedPage.attachments = attached?.sealed
        return (sealedPage, key)
    }

    /// Tries one request: derive, unwrap, decrypt, decode. Runs on the seal worker's thread, never the loop;
    /// `keys` keeps derived keys so places sharing a grid cost one derivation per cell.
    package static func open(_ request: KeyRequest, keys: inout DerivedKeys) -> KeyResult {
        var pageKey: [UInt8]?
        return open(request, keys: &keys, pageKey: &pageKey)
    }

    /// `open`, also giving the page key it recovered (for the proof of opening in receipts, `ReceiptProof`).
    package static func open(_ request: KeyRequest, keys: inout DerivedKeys, pageKey: inout [UInt8]?) -> KeyResult {
        Sealer.initialize()
        var key: [UInt8]
        switch request.slot {
        case let .guarded(clear):
            key = clear
        case .sealed, .cells, .answers:
            guard let derivation = request.derivation, derivation.cost.problem == nil else {
                return .damaged("over the cost cap")
            }
            guard let kek = keys[derivation] ?? derive(derivation.secret, salt: derivation.salt, cost: derivation.cost)
            else {
                return .damaged("Argon2id ran out of memory")
            }
            keys[derivation] = kek
            guard
                let unwrapped = request.slot.wrappedKeys.lazy.compactMap({
                    decrypt($0, key: kek, data: request.slotData)
                })
                .first(where: { $0.count == SealedPage.keyBytes })
            else { return .wrong }
            key = unwrapped
        }
        if request.version >= MessageFile.startVersion {
            guard let start = request.start, start.count == SealedPage.keyBytes else {
                return .damaged("the hunt's start key is missing")
            }
            key = startPageKey(
                inner: key, start: start, id: request.sealedID, page: request.page, version: request.version)
        }
        pageKey = key
        guard let plaintext = decrypt(request.ciphertext, key: key, data: request.contentData) else {
            return .damaged("the page key does not open this page's ciphertext")
        }
        guard let content = SealedContent.decode(plaintext) else {
            return .damaged("the page's content is not readable")
        }
        return .opened(content)
    }

    /// `open` without keeping derived keys.
    package static func open(_ request: KeyRequest) -> KeyResult {
        var keys = DerivedKeys(capacity: 1)
        return open(request, keys: &keys)
    }

    /// Why a format 2 message cannot be taken in although its signature holds: a guard whose key does not open
    /// its page (a ciphertext swapped between pages or messages). Sealed sets can only be checked by their secret.
    package static func checkGuards(_ message: Message) -> String? {
        for (index, page) in message.pages.enumerated() {
            // Format 6: a guard holds the inner key, which opens nothing without the start key.
            guard let sealed = page.sealed, !sealed.needsStart else { continue }
            for set in LockSetName.allCases {
                guard case .guarded = sealed.slots[set] else { continue }
                guard let request = KeyRequest(id: message.id, page: index + 1, set: set, of: sealed) else { continue }
                if case let .damaged(why) = open(request) { return "page \(index + 1), set \(set.rawValue): \(why)" }
            }
        }
        return nil
    }

    /// Format 6's page key (docs/FORMAT.md "Format 6"): BLAKE2b-256 keyed with the hunt's start key over the slot's
    /// inner key and `chest-v6|start|ID|PAGE`. Without the start key the inner key says nothing of the page key, and
    /// the start key alone says nothing without a set's secrets.
    package static func startPageKey(inner: [UInt8], start: [UInt8], id: MessageID, page: Int, version: Int) -> [UInt8]
    {
        let input = inner + Array(SealSecret.startData(id, page: page, version: version).utf8)
        var out = [UInt8](repeating: 0, count: SealedPage.keyBytes)
        _ = crypto_generichash(&out, out.count, input, UInt64(input.count), start, start.count)
        return out
    }

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

    /// A uniformly random permutation (Fisher–Yates over libsodium's `randombytes_uniform`).
    static func shuffled<Element>(_ elements: [Element]) -> [Element] {
        var elements = elements
        for index in stride(from: elements.count - 1, to: 0, by: -1) {
            elements.swapAt(index, Int(randombytes_uniform(UInt32(index + 1))))
        }
        return elements
    }

    /// nonce ‖ ciphertext ‖ tag.
    static func encrypt(_ message: [UInt8], key: [UInt8], data: String) -> [UInt8] {
        let nonce = Sealer.randomBytes(SealedPage.nonceBytes)
        let ad = Array(data.utf8)
        var out = [UInt8](repeating: 0, count: message.count + SealedPage.tagBytes)
        var length: UInt64 = 0
        _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
            &out, &length, message, UInt64(message.count), ad, UInt64(ad.count),
            nil, nonce, key)
        return nonce + out.prefix(Int(length))
    }

    static func decrypt(_ sealed: [UInt8], key: [UInt8], data: String) -> [UInt8]? {
        let overhead = SealedPage.nonceBytes + SealedPage.tagBytes
        guard sealed.count >= overhead, key.count == SealedPage.keyBytes else { return nil }
        let nonce = Array(sealed.prefix(SealedPage.nonceBytes))
        let body = Array(sealed.dropFirst(SealedPage.nonceBytes))
        let ad = Array(data.utf8)
        var out = [UInt8](repeating: 0, count: body.count - SealedPage.tagBytes)
        var length: UInt64 = 0
        let result = crypto_aead_xchacha20poly1305_ietf_decrypt(
            &out, &length, nil, body, UInt64(body.count), ad,
            UInt64(ad.count), nonce, key)
        return result == 0 ? Array(out.prefix(Int(length))) : nil
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
