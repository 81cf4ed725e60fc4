import struct FoundationEssentials.Date

/// A release key the organiser publishes (docs/HUNTS.md "Messages on the broker"): it opens the pages sealed
/// with `--lock release=NAME`.
package struct HuntRelease: Codable, Hashable, Sendable {
    /// `[A-Za-z0-9_-]{1,32}`, a topic level.
    package var name: String
    package var key: ReleaseKey

    package init(name: String, key: ReleaseKey) {
        self.name = name
        self.key = key
    }

    /// The reserved name of the hunt's start key (docs/HUNTS.md "The start key"): a release lock's name cannot begin
    /// with `_`, so no page's release can share it.
    package static let startName = "_start"

    package static func isValidName(_ name: String) -> Bool { HuntTopic.isValidLevel(name) }
}

extension HuntEnvelope {
    /// The release that carries the hunt's start key (docs/HUNTS.md "The start key"), unsigned: `chest hunt start`
    /// and the board sign it.
    package static func startKey(_ key: ReleaseKey, hunt: HuntID, id: UInt64, sent: Date) -> HuntEnvelope {
        HuntEnvelope(hunt: hunt, id: id, sent: sent, release: HuntRelease(name: HuntRelease.startName, key: key))
    }
}
