import ChestArguments
import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials
import Glibc

/// `chest senders …`: the senders' keys chest knows (docs/SECURITY.md "Known senders").
struct SendersCommand: ChestCommand {
    static let name = "senders"
    static let abstract = "the senders' keys chest knows: list, trust a new key, forget a name"
    static let discussion = """
        chest remembers each sender's key the first time list, read or watch meets the name (trust on first use, \
        as ssh's known_hosts), in known-senders.json in the config directory. A message whose sender name is known \
        with another key is flagged "NAME — not the key you had before": anyone can write any name in a file, only \
        the key is the sender's. So is a lookalike, a name that reads as a known one under another key (a Cyrillic \
        capital O, a Ukrainian i, a no-break or invisible space): names are compared by how they read, so compatibility \
        forms, invisible characters, runs of spaces and letters that pass for Latin ones do not make a new name, \
        while case and accents do ("Organizer" is another name than "Organiser", not a lookalike). If the sender \
        really changed keys, trust the new one with chest senders trust ID (the message that came with it; not while \
        another key's message in the chest has its ID: one of the two is a copy, so delete it first); \
        chest senders forget NAME forgets a name, so its next message is met anew. chest senders alone lists them \
        (docs/SECURITY.md "Known senders").
        """
    static var subcommands: [any ParsableCommand.Type] {
        [SendersListCommand.self, SendersTrustCommand.self, SendersForgetCommand.self]
    }

    init(_ values: ParsedValues) throws(UsageError) {}

    func run(settings: Settings) throws {
        try SendersListCommand.list(settings, json: false)
    }
}

/// `chest senders list [--json]`.
struct SendersListCommand: ChestCommand {
    static let name = "list"
    static let abstract = "each known sender, the short fingerprint of its key, and since when"
    static let parameters: [Parameter] = [.json]

    var json: Bool

    init(_ values: ParsedValues) throws(UsageError) {
        json = values.flag("--json")
    }

    func run(settings: Settings) throws { try Self.list(settings, json: json) }

    static func list(_ settings: Settings, json: Bool) throws {
        let known = try KnownSendersFile.load(settings)
        let names = known.senders.keys.sorted()
        if json {
            print(
                CLI.jsonText(
                    names.map { JSONRow(name: $0, key: known.senders[$0]!.key, since: known.senders[$0]!.since) }))
            return
        }
        guard !names.isEmpty else {
            print(
                "no known senders yet: chest learns a sender's key the first time list, read or watch shows its message"
            )
            return
        }
        var lines = ["SENDER            KEY                  SINCE"]
        for name in names {
            let entry = known.senders[name]!
            lines.append(
                Output.pad(String(TerminalText.escaped(name).prefix(16)), 16) + "  "
                    + Output.pad(KeyFingerprint.short(entry.key), 19) + "  " + LockReason.format(entry.since, .current))
        }
        print(lines.joined(separator: "\n"))
    }

    struct JSONRow: Encodable {
        var name: String
        var key: String
        var since: Date
    }
}

/// `chest senders trust ID`.
struct SendersTrustCommand: ChestCommand {
    static let name = "trust"
    static let abstract = "trust the key of this message's sender under its name, replacing the one you had"
    static let parameters: [Parameter] = [.messageID]

    var id: String

    init(_ values: ParsedValues) throws(UsageError) {
        id = values.positional("ID")[0]
    }

    func run(settings: Settings) throws {
        let report = try CLI.client(settings).call(ControlRequest.read(id: id), expecting: ReadReport.self)
        guard let key = report.senderKey else { throw ChestError("message \(report.id.short) has no sender key") }
        guard !report.sentByYou else {
            throw ChestError("you sent message \(report.id.short); your own key needs no trust")
        }
        // One of two messages with one ID is a copy re-signed by another key: trusting either could give the name to
        // the copy's key (docs/SECURITY.md "Round five (issue 61)").
        if let others = report.sameID, !others.isEmpty {
            throw ChestError(
                "another key's message in the chest has the ID of \(report.id.short) (\(others.map(\.short).joined(separator: ", "))): one of them is a copy re-signed by someone else; "
                    + "compare their keys (chest read) with the sender's, delete the copy (chest delete ID), then trust the other"
            )
        }
        var known = try KnownSendersFile.load(settings)
        let before = known.senders[report.from]
        known.trust(report.from, key: key, at: Date())
        try KnownSendersFile.save(known, settings)
        let name = TerminalText.escaped(report.from)
        if let before, before.key != key {
            print("\(name): now key \(KeyFingerprint.short(key)) (was \(KeyFingerprint.short(before.key)))")
        } else {
            print("\(name): key \(KeyFingerprint.short(key))")
        }
    }
}

/// `chest senders forget NAME`.
struct SendersForgetCommand: ChestCommand {
    static let name = "forget"
    static let abstract = "forget a sender's name and key: its next message is met anew"
    static let parameters: [Parameter] = [.positional("NAME", help: "the sender's name, as chest senders lists it")]

    var name: String

    init(_ values: ParsedValues) throws(UsageError) {
        name = values.positional("NAME")[0]
    }

    func run(settings: Settings) throws {
        var known = try KnownSendersFile.load(settings)
        guard known.forget(name) else { throw ChestError("no known sender named \(TerminalText.escaped(name))") }
        try KnownSendersFile.save(known, settings)
        print("forgot \(TerminalText.escaped(name))")
    }
}
