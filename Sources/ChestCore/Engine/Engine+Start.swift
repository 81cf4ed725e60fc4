import struct FoundationEssentials.Data

/// The hunt's start key (docs/HUNTS.md "The start key"): every page of a format 6 message of the hunt needs it beside
/// the secrets of its own set, so before the organiser publishes it nothing of the page opens and no key of it can be
/// found, whatever a clock says. It travels as a release under the reserved name `HuntRelease.startName`.
extension Engine {
    /// The start key a page of `stored` is opened with: the one the organiser published, for a format 6 message of
    /// the joined hunt; nil when it has not arrived or the message needs none.
    func startKey(for stored: StoredMessage) -> [UInt8]? {
        guard stored.message.version >= MessageFile.startVersion, isHuntMessage(stored),
            let key = seal.releases[HuntRelease.startName], let bytes = Data(base64Encoded: key.base64)
        else { return nil }
        return [UInt8](bytes)
    }

    /// Whether `stored` is a format 6 message still waiting for the start key.
    func awaitsStartKey(_ stored: StoredMessage) -> Bool {
        stored.message.version >= MessageFile.startVersion && startKey(for: stored) == nil
    }

    /// The start key arrived: every page the window held is tried again, and each sealed place of a format 6 message
    /// on the fixes kept meanwhile (a team that waited at the place before the start opens it now).
    mutating func startKeyArrived(now: Now) -> [Effect] {
        var effects = retryHeldBack(now: now)
        let watched = seal.watches.keys.sorted {
            ($0.id.rawValue, $0.key.page, $0.key.set.rawValue) < ($1.id.rawValue, $1.key.page, $1.key.set.rawValue)
        }
        for ref in watched where entries[ref.id].flatMap(startKey(for:)) != nil {
            fileKeptCells(for: ref)
        }
        effects += dispatchCell(now)
        return effects
    }
}
