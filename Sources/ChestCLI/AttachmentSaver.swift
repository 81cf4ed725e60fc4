import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials
import Glibc

/// `chest read ID --save DIR`: opens the open pages' attachments from the message file in the chest, with the
/// key chestd kept from each page's content, and writes each into DIR without ever replacing a file.
struct AttachmentSaver {
    let settings: Settings
    let directory: String

    /// Writes the files; one line for each, saying where it went.
    func save(_ report: ReadReport) throws -> [String] {
        let pages = report.pages.filter { $0.open && !($0.attachments ?? []).isEmpty }
        guard !pages.isEmpty else {
            let locked = report.pages.contains { !$0.open }
            return [
                "no attachments to save: the open pages carry none"
                    + (locked ? " (a locked page's files show once it opens)" : "")
            ]
        }
        let message = try storedMessage(report)
        try Directory.create(directory)
        var lines: [String] = []
        for page in pages {
            let content = SealedContent(text: "", attachments: page.attachments, attachmentsKey: page.attachmentsKey)
            for file in try AttachmentSealer.open(
                message.pages[page.number - 1], number: page.number, content: content, id: message.id)
            {
                let wanted = Attachment.safeName(file.attachment.name)
                let path = try write(file.bytes, as: wanted)
                let renamed = baseName(path) == wanted ? "" : " (\(wanted) was taken)"
                lines.append(
                    "saved page \(page.number)'s \(TerminalText.escaped(file.attachment.name)) as \(path)\(renamed), \(Attachment.sizeText(file.bytes.count))"
                )
            }
        }
        return lines
    }

    /// The message file whose pages chestd reported: in the chest directory, the same message and seal.
    private func storedMessage(_ report: ReadReport) throws -> Message {
        let path = ChestStore(root: settings.chestDirectory).path(of: report.id, in: report.chest)
        let message: Message
        do {
            message = try MessageFile.decode(MessageFileReader.read(path: path))
        } catch {
            throw ChestError(
                "cannot read the message file \(path): \(error); if chestd uses another chest directory, give it with --chest DIR"
            )
        }
        guard message.id == report.messageID ?? report.id,
            message.seal.map({ Data($0.signature).base64EncodedString() })
                == report.pages.lazy.compactMap(\.messageSignature).first
        else {
            throw ChestError("\(path) is not the message chestd has open; restart chestd and try again")
        }
        return message
    }

    /// Creates DIR/NAME, or NAME-2… when taken, with O_EXCL so that nothing there is ever written over.
    private func write(_ bytes: [UInt8], as name: String) throws -> String {
        var taken: Set<String> = []
        while true {
            let free = Attachment.freeName(name) {
                taken.contains($0) || FileManager.default.fileExists(atPath: directory + "/" + $0)
            }
            let path = directory + "/" + free
            let fd: FileDescriptor
            do {
                fd = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, permissions: 0o644)
            } catch  where error.errno == .fileExists {
                taken.insert(free)
                continue
            } catch {
                throw ChestError("cannot write \(error)")
            }
            do {
                try fd.closeAfter { () throws(SystemCallError) in try fd.writeAll(bytes, path: path) }
            } catch {
                throw ChestError("cannot write \(error)")
            }
            return path
        }
    }
}
