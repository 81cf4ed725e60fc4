import ChestArguments
import ChestCore
import ChestIO

/// `chest list [--saved] [--json]`
struct ListCommand: ChestCommand {
    static let name = "list"
    static let abstract = "the messages and their state"
    static let discussion = "The messages of the regular chest (or the saved one) with their state: locked, partial or open."
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
        let notes = items.map { senders.note(from: $0.from, key: $0.senderKey, sentByYou: $0.sentByYou) }
        senders.save()
        for index in items.indices { items[index].lookalikeOf = notes[index]?.lookalikeOf }
        print(json ? CLI.jsonText(items) : Output.list(items, saved: saved, senders: notes))
    }
}
