/// A message composed for a hunt, as the organiser's hunt file records it (docs/HUNTS.md "Proof of opening"): its
/// title and each page's key, so the board can check the proofs in receipts. Never in a join file.
public struct HuntMessage: Codable, Hashable, Sendable {
    public struct PageKey: Codable, Hashable, Sendable {
        /// The page key (32 bytes), base64.
        public var key: String
        /// Whether a set of the page holds the key in the clear (a guard): then whoever has the file can make the
        /// proof, and it proves only that the file was held.
        public var guarded: Bool

        public init(key: String, guarded: Bool) {
            self.key = key
            self.guarded = guarded
        }
    }

    public var title: String
    /// Page 1 first.
    public var pages: [PageKey]

    public init(title: String, pages: [PageKey]) {
        self.title = title
        self.pages = pages
    }
}
