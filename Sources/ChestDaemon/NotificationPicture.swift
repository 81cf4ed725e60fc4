import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials
import Glibc

/// The picture a page's desktop notification shows: its first image attachment, written to a private file (mode
/// 0600) that the notifier can open, in `$XDG_RUNTIME_DIR/chest/pictures`: the systemd unit lets chestd write there
/// (docs/man/chestd.8), the session's notifier can read it, and it goes at logout. chestd keeps no attachment's
/// bytes, so the picture is read from the message file when the notification goes out, off the loop.
struct NotificationPicture: Sendable {
    let messagePath: String
    /// The ID sealed in the message file, which the attachments' associated data is made of.
    let id: MessageID
    /// The message's chest ID (`StoredMessage.id`), which names the picture's file.
    let chestID: MessageID
    let page: Int
    let content: SealedContent
    let cacheDirectory: String

    /// `$XDG_RUNTIME_DIR/chest/pictures`; without a runtime directory `$XDG_CACHE_HOME/chest/pictures`, or
    /// `~/.cache/chest/pictures`.
    static func cacheDirectory(_ environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/chest/pictures" }
        let home = Directory.home(environment)
        return (environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.cache") + "/chest/pictures"
    }

    /// The cache file's path, or nil (with a warning in the log) when the picture cannot be had.
    func write(log: Log) -> String? {
        do {
            let message = try MessageFile.decode(MessageFileReader.read(path: messagePath))
            guard message.id == id, page <= message.pages.count else { return nil }
            let files = try AttachmentSealer.open(message.pages[page - 1], number: page, content: content, id: id)
            guard let image = files.first(where: { $0.attachment.isImage }),
                let suffix = image.attachment.imageExtension
            else { return nil }
            try Directory.create(cacheDirectory)
            let path = "\(cacheDirectory)/\(chestID.rawValue)-\(page).\(suffix)"
            try AtomicFile.write(Data(image.bytes), to: path)
            return path
        } catch {
            log.warning("the notification of \(chestID.short) page \(page) goes without its picture: \(error)")
            return nil
        }
    }
}

extension Daemon {
    /// Where the notification of an unlock finds its picture; nil when the page carries no image.
    func picture(for unlock: Unlock) -> NotificationPicture? {
        guard unlock.attachments.contains(where: \.isImage), let stored = engine.entries[unlock.id],
            let content = stored.state.openPages.first(where: { $0.page == unlock.page })?.content
        else { return nil }
        return NotificationPicture(
            messagePath: store.path(of: unlock.id, in: stored.chest), id: stored.message.id, chestID: unlock.id,
            page: unlock.page,
            content: content, cacheDirectory: NotificationPicture.cacheDirectory(notifications.environment))
    }
}
