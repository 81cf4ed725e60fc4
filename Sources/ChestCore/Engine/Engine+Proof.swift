/// Proof keys (docs/HUNTS.md "Proof of opening"): the seal worker derives one from each page key it recovers; the
/// engine keeps it in memory until the page opens, then with the open page, so that its receipt can carry a proof
/// whenever it is sent (the page key itself is never kept).
extension Engine {
    mutating func proofKeyDerived(_ link: PageLink, proofKey: String) {
        guard entries[link.message] != nil else { return }
        proofKeys[link] = proofKey
    }

    /// The proof key of a page that opens now, forgotten by the engine as the open page takes it.
    mutating func takeProofKey(_ link: PageLink) -> String? {
        proofKeys.removeValue(forKey: link)
    }
}
