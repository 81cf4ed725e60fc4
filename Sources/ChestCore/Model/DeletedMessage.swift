import struct FoundationEssentials.Date

/// A message taken out of the chest by `chest delete`, kept with its state so that `chest undelete` can bring
/// it back as it was.
package struct DeletedMessage: Hashable, Sendable {
    package var stored: StoredMessage
    /// When it was deleted.
    package var at: Date

    package init(stored: StoredMessage, at: Date) {
        self.stored = stored
        self.at = at
    }

    /// How many deleted messages are kept, newest first.
    package static let limit = 10
    /// How long a deleted message can be brought back, in seconds.
    package static let keptFor = 24 * 3600.0
}
