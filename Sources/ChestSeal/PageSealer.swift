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
