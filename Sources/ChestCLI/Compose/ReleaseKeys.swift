import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials
import Glibc

/// The keys `compose --hunt FILE` takes from and keeps in the organiser's hunt file: a release name used for the
/// first time gets a new random key (docs/HUNTS.md "Releases"), and every page's key is recorded for the board's
/// proofs (docs/HUNTS.md "Proof of opening"); the file is written back once the message is made.
struct ReleaseKeys {
    let path: String
    var hunt: HuntFile
    private var added = false
    private var addedStart = false
    private var recordedPages = false

    init(huntPath: String) throws {
        path = huntPath
        hunt = try HuntFile.read(path: huntPath)
        guard !hunt.isJoinFile else {
            throw ChestError(
                "\(huntPath) is a team's join file; release locks need the organiser's hunt file (chest hunt create)")
        }
    }

    /// The key of this release, made now if the hunt has none by that name.
    mutating func key(for name: ReleaseName) -> ReleaseKey {
        if let key = hunt.releases?[name] { return key }
        let key = HuntSigner.newReleaseKey()
        hunt.releases = (hunt.releases ?? [:]).merging([name: key]) { old, _ in old }
        added = true
        return key
    }

    /// The hunt's start key (docs/HUNTS.md "The start key"), kept among the releases under the reserved name
    /// `HuntRelease.startName`; made now if the hunt has none.
    mutating func startKey() -> [UInt8] {
        let name = ReleaseName.start
        if hunt.releases?[name] == nil {
            hunt.releases = (hunt.releases ?? [:]).merging([name: HuntSigner.newReleaseKey()]) { old, _ in old }
            addedStart = true
        }
        return [UInt8](Data(base64Encoded: hunt.releases![name]!.base64)!)
    }

    /// Keeps a page's key under its message (never in a join file: `HuntFile.joinFile` leaves them out).
    /// Its visible places go with it, for the board's map.
    mutating func record(
        _ id: MessageID, title: String, page: Int, key: [UInt8], guarded: Bool, targets: [HuntMessage.Target],
        hints: [HuntMessage.Hint] = [], waitsFor: [[PageLink]]? = nil, releases: [[String]]? = nil
    ) {
        var message = hunt.messages?[id] ?? HuntMessage(title: title, pages: [])
        if page == 1 { message = HuntMessage(title: title, pages: []) }
        message.pages.append(
            HuntMessage.PageKey(
                key: Data(key).base64EncodedString(), guarded: guarded,
                targets: targets.isEmpty ? nil : targets, hints: hints.isEmpty ? nil : hints,
                waitsFor: waitsFor, releases: releases))
        hunt.messages = (hunt.messages ?? [:]).merging([id: message]) { _, new in new }
        recordedPages = true
    }

    /// Writes the hunt file back when a release was added or page keys were recorded.
    func save() throws {
        guard added || addedStart || recordedPages else { return }
        try hunt.write(to: path)
        if addedStart {
            printError(
                "chest: added the hunt's start key to \(path); the board publishes it at the start (or chest hunt start --hunt \(path))"
            )
        }
        if added {
            printError("chest: added release keys to \(path); publish one with chest hunt release NAME --hunt \(path)")
        }
    }
}
