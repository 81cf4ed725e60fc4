import ChestCore
import FoundationEssentials

/// A mission's photo file as `chest hunt submit` and chestd read it (docs/HUNTS.md "Missions"): a regular file, its
/// size asked before a byte is read, never more than `HuntSubmission.maximumPhotoBytes` read.
package enum MissionFile {
    /// The file's bytes, or a sentence saying why it is not sent.
    package static func read(_ path: String) throws(ChestError) -> [UInt8] {
        do {
            return [UInt8](try MessageFileReader.read(path: path, limit: HuntSubmission.maximumPhotoBytes))
        } catch .tooLarge(let size) {
            throw ChestError(
                "\(path) is \(Self.mebibytes(size)) MiB; a mission's photo is at most \(HuntSubmission.maximumPhotoBytes >> 20) MiB: scale it down first (nothing was sent)"
            )
        } catch .symbolicLink {
            throw ChestError("\(path) is a symbolic link; name the photo itself")
        } catch .directory, .fifo, .specialFile {
            throw ChestError("\(path) is not a regular file; name the photo itself")
        } catch {
            throw ChestError("\(path): \(error)")
        }
    }

    private static func mebibytes(_ size: Int) -> String {
        let tenths = (size * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10)"
    }
}
