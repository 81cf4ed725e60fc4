import ChestCore
import FoundationEssentials
import Glibc

/// Reads a message file that anyone could have put in the chest directory, safely: never through a symlink,
/// never blocking on a FIFO, never opening a device, and never reading more than the size limit allows.
package enum MessageFileReader {
    /// Why a file was not read, each with the sentence kept beside it in `rejected/`.
    package enum ReadError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The file could not even be looked at (gone, or in a directory we cannot enter).
        case unreadable(Errno)
        case symbolicLink
        case directory
        case fifo
        /// A socket or a device.
        case specialFile
        /// Over `MessageFile.fileLimit`; `size` is what the file system reported, or what was read.
        case tooLarge(size: Int)
        /// open, fstat or read failed.
        case failed(SystemCallError)

        /// Whether trying again later can succeed: the process or the system ran out of descriptors or memory.
        package var isTransient: Bool {
            let errno: Errno
            switch self {
            case let .unreadable(error): errno = error
            case let .failed(error): errno = error.errno
            default: return false
            }
            return [EMFILE, ENFILE, ENOMEM, ENOBUFS, EAGAIN].contains(errno.rawValue)
        }

        package var description: String {
            switch self {
            case let .unreadable(errno): "cannot read it: \(errno)"
            case .symbolicLink: "it is a symbolic link; copy the file itself into the chest"
            case .directory: "it is a directory, not a message file"
            case .fifo: "it is a FIFO, not a message file"
            case .specialFile: "it is a special file, not a message file"
            case let .tooLarge(size): MessageFormatError.tooLarge(size: size, limit: MessageFile.fileLimit).description
            case let .failed(error): error.description
            }
        }
    }

    /// The bytes of the regular file at `path`, at most `limit` of them (a message file's by default).
    ///
    /// The file is checked twice: by its path before it is opened, so that no device or FIFO is ever opened, and
    /// by the open descriptor, so that a file swapped in between is caught as well.
    package static func read(path: String, limit: Int = MessageFile.fileLimit) throws(ReadError) -> Data {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .unreadable(.current) }
        try check(info, limit: limit)
        let fd: FileDescriptor
        do throws(SystemCallError) {
            fd = try .open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        } catch {
            throw .failed(error)
        }
        defer { fd.close() }
        do throws(SystemCallError) {
            info = try fd.status(path: path)
        } catch {
            throw .failed(error)
        }
        try check(info, limit: limit)
        // One byte over the limit is enough to know that the file grew past it since fstat.
        var data = Data(capacity: Int(info.st_size) + 1)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count <= limit {
            let left = limit + 1 - data.count
            if buffer.count > left { buffer.removeLast(buffer.count - left) }
            let count: Int
            do throws(SystemCallError) {
                count = try fd.read(into: &buffer, path: path)
            } catch {
                throw .failed(error)
            }
            if count == 0 { break }
            data.append(buffer, count: count)
        }
        guard data.count <= limit else { throw .tooLarge(size: data.count) }
        return data
    }

    /// Refuses anything but a regular file within the size limit.
    private static func check(_ info: stat, limit: Int) throws(ReadError) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFLNK: throw .symbolicLink
        case S_IFDIR: throw .directory
        case S_IFIFO: throw .fifo
        default: throw .specialFile
        }
        guard Int(info.st_size) <= limit else { throw .tooLarge(size: Int(info.st_size)) }
    }
}
