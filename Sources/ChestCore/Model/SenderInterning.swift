/// Each sender's public key and name once: messages made to share them hold one buffer for all of a sender's messages
/// instead of a copy each (a key is 64 bytes with the allocator's, a name over 15 bytes 48 and more), kept as long as
/// this is.
package struct SenderInterning: Sendable {
    private var keys: Set<[UInt8]> = []
    private var names: Set<String> = []

    package init() {}

    /// `message` holding the buffers of an equal key and name seen before, or its own, kept for the next.
    package mutating func share(_ message: inout Message) {
        if let key = message.seal?.publicKey {
            message.seal?.share(keys.insert(key).memberAfterInsert)
        }
        message.from = names.insert(message.from).memberAfterInsert
    }
}
