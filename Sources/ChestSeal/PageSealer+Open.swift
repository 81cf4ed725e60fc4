import ChestCore
import FoundationEssentials

/// Opening a sealed page with one request's secret, on the seal worker's thread (docs/ARCHITECTURE.md "Threads").
extension PageSealer {
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
}
