/// A message composed for a hunt, as the organiser's hunt file records it (docs/HUNTS.md "Proof of opening"): its
/// title and each page's key, so the board can check the proofs in receipts. Never in a join file.
public struct HuntMessage: Codable, Hashable, Sendable {
    public struct PageKey: Codable, Hashable, Sendable {
        /// The page key (32 bytes), base64.
        public var key: String
        /// Whether a set of the page holds the key in the clear (a guard): then whoever has the file can make the
        /// proof, and it proves only that the file was held.
        public var guarded: Bool
        /// The page's location locks kept in the clear (`,visible`): the board's map shows them.
        /// A sealed place is never recorded here, so the board cannot give it away on a projector.
        public var targets: [Target]?

        public init(key: String, guarded: Bool, targets: [Target]? = nil) {
            self.key = key
            self.guarded = guarded
            self.targets = targets
        }
    }

    /// A place a reader is shown anyway (distance and direction): its centre and radius in metres.
    public struct Target: Codable, Hashable, Sendable {
        public var latitude: Double
        public var longitude: Double
        public var radius: Double
        /// The organiser's name for the place (`,visible=NAME`), when it has one.
        public var label: String?

        public init(_ center: Coordinate, radius: Double, label: String? = nil) {
            latitude = center.latitude
            longitude = center.longitude
            self.radius = radius
            self.label = label
        }

        public var center: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
        var isValid: Bool {
            center.isValid && radius.isFinite && radius > 0 && label.map { (1...200).contains($0.count) } ?? true
        }
    }

    /// Every visible target of the hunt's messages, with the title and page it belongs to, in a stable order.
    public static func targets(of messages: [String: HuntMessage]?) -> [(title: String, page: Int, target: Target)] {
        (messages ?? [:]).sorted { $0.key < $1.key }.flatMap { _, message in
            message.pages.enumerated().flatMap { index, page in
                (page.targets ?? []).map { (message.title, index + 1, $0) }
            }
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
