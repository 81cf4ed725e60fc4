/// A release key the organiser publishes (docs/HUNTS.md "Messages on the broker"): it opens the pages sealed
/// with `--lock release=NAME`.
public struct HuntRelease: Codable, Hashable, Sendable {
    /// `[A-Za-z0-9_-]{1,32}`, a topic level.
    public var name: String
    public var key: ReleaseKey

    public init(name: String, key: ReleaseKey) {
        self.name = name
        self.key = key
    }

    /// The reserved name of the hunt's start key (docs/HUNTS.md "The start key"): a release lock's name cannot begin
    /// with `_`, so no page's release can share it.
    public static let startName = "_start"

    public static func isValidName(_ name: String) -> Bool { HuntTopic.isValidLevel(name) }
}
