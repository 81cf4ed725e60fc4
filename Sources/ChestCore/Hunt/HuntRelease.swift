/// A release key the organiser publishes (docs/HUNTS.md "Messages on the broker"): it opens the pages sealed
/// with `--lock release=NAME`.
public struct HuntRelease: Codable, Hashable, Sendable {
    /// `[A-Za-z0-9_-]{1,32}`, a topic level.
    public var name: String
    /// 32 bytes, base64.
    public var key: String

    public init(name: String, key: String) {
        self.name = name
        self.key = key
    }

    public static func isValidName(_ name: String) -> Bool { HuntTopic.isValidLevel(name) }

    /// Whether `key` is 32 bytes in base64.
    public static func isValidKey(_ key: String) -> Bool { HuntFile.base64(key, bytes: 32) }
}
