import FoundationEssentials
import Glibc

/// The file a user names with `-o`, written the way a shell's `>` would, but never half-written and never through
/// a link someone else planted (docs/ARCHITECTURE.md "Output files"):
///
/// - `-` is standard output;
/// - a FIFO, a character or block device, a terminal (and a symlink to any of them, `/dev/stdout` among them) is
///   written through, in place: replacing it by a rename would put a regular file where `/dev/null` was;
/// - a regular file, new or existing, is replaced atomically (`AtomicFile`); through a symlink, the file it points
///   to is replaced and the link stays;
/// - every link on the way, in every component of the name, is judged as the kernel's `fs.protected_symlinks`
///   would: in a sticky folder others can write to, only a link of this user's or of the folder's owner is
///   followed (`Refusal.linkNotYours`), whatever that setting says on this machine; the final write opens each
///   folder of the resolved path with `O_NOFOLLOW`, so a link swapped in after the check is refused, not followed.
package struct OutputFile: Sendable, Equatable {
    /// What the name leads to once its symlinks are followed.
    package enum Target: Sendable, Equatable {
        /// The process's standard output: `-`, or a name that leads to the same open file (`/dev/stdout`).
        case standardOutput
        /// Something that is not a regular file, at `path` (no links left in it): written through, in place.
        case special(path: String)
        /// A regular file at `path` (no links left in it), replaced atomically; `exists` when one is there now,
        /// `throughLink` when the name reached it through a symlink.
        case regular(path: String, exists: Bool, throughLink: Bool)
        /// A regular file reached through a link in /proc (`/dev/fd/N` of a redirected descriptor): truncated and
        /// written in place, since the link names an open file, not a place to rename to.
        case openFile(path: String)

        /// Whether the name leads to a regular file, there now or to be made (not standard output, not a device).
        package var isRegularFile: Bool {
            if case .regular = self { return true }
            return false
        }
    }

    /// Why a name is not written at all.
    package enum Refusal: Error, Sendable, Equatable {
        /// A call failed on the way (no such folder, a directory, too many links, …).
        case system(SystemCallError)
        /// `link` is a symlink owned by `owner` in `directory`, a sticky folder others can write to, and neither
        /// this user nor the folder's owner owns it: following it would let that user choose what is replaced.
        case linkNotYours(link: String, owner: uid_t, directory: String)
    }

    /// The name as the user gave it, for messages.
    package let name: String
    package let target: Target

    /// Follows `name`'s symlinks from `directory` (the working directory when nil) to what it names.
    package init(_ name: String, directory: String? = nil) throws(Refusal) {
        self.name = name
        target = try PathResolution(name: name).resolve(directory: directory)
    }

    /// Whether writing would replace a regular file that is there now: the case `--force` exists for.
    package var replacesExistingFile: Bool {
        if case .regular(_, exists: true, _) = target { return true }
        return false
    }

    /// The file a dangling link points to, which writing would create: as much a choice to confirm as replacing a
    /// file, since the link's maker chose where it is.
    package var danglingLinkTarget: String? {
        if case let .regular(path, exists: false, throughLink: true) = target { return path }
        return nil
    }

    /// Writes `data` to the target: atomically for a regular file, through the open file otherwise.
    package func write(_ data: Data) throws(SystemCallError) {
        switch target {
        case .standardOutput:
            try FileDescriptor.standardOutput.writeAll(data, path: name)
        case let .special(path):
            try writeThrough(data, path: path, flags: O_WRONLY | O_NOCTTY)
        case let .openFile(path):
            let fd = try FileDescriptor.open(path, O_WRONLY | O_NOCTTY | O_TRUNC)
            try fd.closeAfter { () throws(SystemCallError) in try fd.writeAll(data, path: name) }
        case let .regular(path, _, _):
            let directory = try FileDescriptor.openDirectoryWithoutLinks(directoryName(path))
            try directory.closeAfter { () throws(SystemCallError) in
                try AtomicFile.write(data, named: baseName(path), in: directory, path: path)
            }
        }
    }

    /// Writes `data` to the file named `name` (see `OutputFile`).
    package static func write(_ data: Data, to name: String) throws(Refusal) {
        let file = try OutputFile(name)
        do {
            try file.write(data)
        } catch {
            throw .system(error)
        }
    }

    /// Opens the resolved path's last component relative to its folder, which was opened link by link with
    /// `O_NOFOLLOW`: a link put anywhere on the path since it was resolved fails the open instead of being followed.
    private func writeThrough(_ data: Data, path: String, flags: Int32) throws(SystemCallError) {
        let directory = try FileDescriptor.openDirectoryWithoutLinks(directoryName(path))
        let fd = try directory.closeAfter { () throws(SystemCallError) in
            try directory.open(baseName(path), flags | O_NOFOLLOW, path: path)
        }
        try fd.closeAfter { () throws(SystemCallError) in try fd.writeAll(data, path: name) }
    }
}

extension OutputFile.Refusal: CustomStringConvertible {
    /// What went wrong, as the end of a "cannot write NAME: …" sentence.
    package var description: String {
        switch self {
        case let .system(error):
            return "\(error.errno)"
        case let .linkNotYours(link, owner, directory):
            return "\(link) is a symlink owned by \(userName(owner)) in \(directory), a sticky folder others can "
                + "write to; chest follows a link there only when it is yours or the folder owner's, as the kernel's "
                + "fs.protected_symlinks does: remove the link, or write somewhere else"
        }
    }

}
