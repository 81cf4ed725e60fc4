import ChestCore
import ChestIO
import ChestSeal
import Foundation

/// The release keys of the organiser's hunt file, as `compose --hunt FILE` uses them: a name used for the first
/// time gets a new random key, written back to the file once the message is made (docs/HUNTS.md "Releases").
struct ReleaseKeys {
    let path: String
    var hunt: HuntFile
    private var added = false

    init(huntPath: String) throws {
        path = huntPath
        hunt = try HuntFile.read(path: huntPath)
        guard !hunt.isJoinFile else {
            throw ChestError("\(huntPath) is a team's join file; release locks need the organiser's hunt file (chest hunt create)")
        }
    }

    /// The key of this release, made now if the hunt has none by that name.
    mutating func key(for name: String) -> String {
        if let key = hunt.releases?[name] { return key }
        let key = HuntSigner.newReleaseKey()
        hunt.releases = (hunt.releases ?? [:]).merging([name: key]) { old, _ in old }
        added = true
        return key
    }

    /// Writes the hunt file back when a release was added.
    func save() throws {
        guard added else { return }
        try hunt.write(to: path)
        printError("chest: added release keys to \(path); publish one with chest hunt release NAME --hunt \(path)")
    }
}
