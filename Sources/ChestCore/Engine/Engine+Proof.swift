/// Proof keys (docs/HUNTS.md "Proof of opening"): the seal worker derives one from each page key it recovers; the
/// engine keeps it in memory until the page opens, then with the open page, so that its receipt can carry a proof
/// whenever it is sent (the page key itself is never kept).
extension Engine {
    /// Keeps the proof key that came with a derived key, for a page that key opened and that is not open yet: the
    /// answer for an older version of the message, or for a page already open, leaves nothing behind.
    mutating func keepProofKey(_ proofKey: String, of request: KeyRequest, _ result: KeyResult) {
        guard case .opened = result, let stored = entries[request.id],
            stored.message.pages.indices.contains(request.page - 1),
            stored.message.pages[request.page - 1].sealed?.ciphertext == request.ciphertext,
            !stored.state.isOpen(page: request.page)
        else { return }
        proofKeys[PageLink(message: request.id, page: request.page)] = proofKey
    }

    /// The proof key of a page that opens now, forgotten by the engine as the open page takes it.
    mutating func takeProofKey(_ link: PageLink) -> String? {
        proofKeys.removeValue(forKey: link)
    }
}
