import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials
import Glibc

/// `compose --attach FILE`: the files each page carries, read and checked before anything is sealed.
extension Composer {
    /// The files of every page, in order; refused with the file and the sizes when they come to more than a
    /// message carries.
    static func attachedFiles(_ draft: ComposeDraft) throws -> [[AttachedFile]] {
        var total = 0
        return try draft.pages.enumerated().map { index, page in
            try page.attachments.map { path in
                let bytes = try read(path, page: index + 1, room: Attachment.totalLimit - total)
                total += bytes.count
                return AttachedFile(name: Attachment.safeName(baseName(path)), bytes: bytes)
            }
        }
    }

    /// One file's bytes; refused before it is read whole when it does not fit in the `room` left.
    private static func read(_ path: String, page: Int, room: Int) throws -> [UInt8] {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw ChestError(
                "page \(page): the attachment \(path): "
                    + (errno == ENOENT ? "no such file" : "cannot read it (\(Errno.current))"))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw ChestError("page \(page): the attachment \(path) is not a regular file")
        }
        let size = Int(info.st_size)
        guard size <= room else { throw tooLarge(path, page: page, size: size, room: room) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ChestError("page \(page): cannot read the attachment \(path) (check its permissions)")
        }
        guard data.count <= room else { throw tooLarge(path, page: page, size: data.count, room: room) }
        return [UInt8](data)
    }

    private static func tooLarge(_ path: String, page: Int, size: Int, room: Int) -> ChestError {
        let before = Attachment.totalLimit - room
        let limit = "the 8 MiB (\(Attachment.totalLimit) bytes) a message carries"
        let sizes =
            before == 0
            ? "is \(Attachment.sizeText(size)) (\(size) bytes), over \(limit)"
            : "is \(Attachment.sizeText(size)) (\(size) bytes); with the \(Attachment.sizeText(before)) attached before it that comes to \(before + size) bytes, over \(limit)"
        return ChestError("page \(page): the attachment \(path) \(sizes); leave a file out or make it smaller")
    }

    /// "page 1 carries 2 files, sealed with it: oak.jpg (image/jpeg, 120.4 KB), notes.txt (…)".
    static func attachmentSentence(_ files: [AttachedFile], page: Int) -> String? {
        guard !files.isEmpty else { return nil }
        let list = files.map { "\($0.name) (\($0.attachment.type), \(Attachment.sizeText($0.bytes.count)))" }
        return "page \(page) carries \(files.count == 1 ? "1 file" : "\(files.count) files"), sealed with it: "
            + list.joined(separator: ", ")
    }
}
