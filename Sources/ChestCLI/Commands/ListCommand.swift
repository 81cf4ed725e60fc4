import ChestArguments
import ChestCore
import ChestIO

/// `chest list [--saved] [--json]`
struct ListCommand: ChestCommand {
    static let name = "list"
    static let abstract = "the messages and their state"
    static let discussion = """
        The messages of the regular chest (or with --saved the saved one): ID, state (locked, partial or open), \
        pages open, sender, KEY (the short fingerprint of the key that sealed the message) and title. chest \
        remembers each sender's key the first time it meets the name, as ssh's known_hosts does; a message whose \
        sender name is known with another key is flagged, here and in read and watch, and so is a lookalike, a \
        name that reads as a known one (a Cyrillic capital O, an invisible space) under another key: anyone can write \
        any name in a file, only the key is the sender's (chest senders). Names and titles are shown with control \
        and invisible characters escaped (\\u{202e}).

        --json prints an array of objects with id, title, from, chest (regular or saved), pages, openPages, state, \
        sentByYou, receivedAt and senderKey, and lookalikeOf naming the known sender when the name is a lookalike \
        of one. ID is the chest ID: the message's own, unless another key's message had that ID when it came; then \
        messageID is its own ID, and sameID lists, on each of the messages with that ID, the others' chest IDs: one \
        of them is a copy, flagged here and in read.
        """
    static let parameters: [Parameter] = [.flag("--saved", help: "the saved chest instead of the regular one"), .json]

    var saved: Bool
    var json: Bool

    init(_ values: ParsedValues) throws(UsageError) {
        saved = values.flag("--saved")
        json = values.flag("--json")
    }

    func run(settings: Settings) throws {
        var items = try CLI.client(settings).call(ControlRequest.list(saved: saved), expecting: [ListItem].self)
        var senders = SenderCheck(settings: settings)
        let notes = items.map {
            senders.note(from: $0.from, key: $0.senderKey, sentByYou: $0.sentByYou, sameID: $0.sameID)
        }
        senders.save()
        for index in items.indices { items[index].lookalikeOf = notes[index]?.lookalikeOf }
        print(json ? CLI.jsonText(items) : Output.list(items, saved: saved, senders: notes))
    }
}
