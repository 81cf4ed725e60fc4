import ChestArguments
import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials
import Glibc

/// `chest hunt join FILE`: this reader plays for the team of the join file.
struct HuntJoinCommand: ChestCommand {
    static let name = "join"
    static let abstract = "join a hunt with a team's join file"
    static let discussion = """
        Keeps the join file in the config directory (mode 0600) and tells a running chestd, which then connects \
        to the hunt's broker (TLS when the URL says mqtts, the team's user and password, a last will that marks \
        the team offline) and publishes, for every page that opens, the signed receipt (with the fixes' positions \
        only when the hunt shares them) and an OwnTracks transition, and the team's status. It all goes through an \
        outbox in the chest, written before it is sent and removed once the broker acknowledged it, so unlocks made \
        offline are sent in order when the broker is back, and nothing is lost to a crash. Page text never leaves \
        this machine. Pages the organiser releases open. chest status shows the link and the outbox. Joining \
        another hunt replaces this one. A team may play on several laptops: join each with the same file and a \
        --device name of its own (the host name by default); each shows on the board with its own status and \
        trust, a page opened on two of them is credited once, and a hint, a word, a release and the start key \
        reach all of them.
        """
    static let synopses = ["FILE [--device NAME]"]
    static let parameters: [Parameter] = [
        .positional(
            "FILE", help: "the team's join file (from chest hunt team add)", completion: .files(extension: "hunt")),
        .option("--device", value: "NAME", help: "this laptop's name in its team (default: the host name)"),
    ]

    var path: String
    var device: String

    init(_ values: ParsedValues) throws(UsageError) {
        path = values.positional("FILE")[0]
        device = values.value("--device") ?? HostName.device()
        guard HuntTopic.isValidLevel(device) else {
            throw UsageError(
                "--device \(TerminalText.escaped(device)): a device's name is 1 to 32 letters, digits, - or _ (such as laptop-2)"
            )
        }
    }

    func run(settings: Settings) throws {
        var hunt = try HuntFile.read(path: path)
        guard let team = hunt.team else {
            throw ChestError("\(path) is the organiser's hunt file; join with a team's file (chest hunt team add TEAM)")
        }
        _ = try Identity.loadOrCreate(at: settings.identityPath)
        try Directory.create(settings.configDirectory)
        hunt.device = device
        try hunt.write(to: settings.configDirectory + "/" + HuntFile.joinedFileName)
        print(
            "joined \u{201C}\(TerminalText.escaped(hunt.name))\u{201D} as team \(team), device \(device); broker \(hunt.broker)"
        )
        HuntJoinCommand.tellChestd(settings)
    }

    /// Asks a running chestd to read the join file again; says so when none runs.
    static func tellChestd(_ settings: Settings) {
        do {
            _ = try CLI.client(settings).call(ControlRequest.reload, expecting: [String].self)
            print("chestd took it")
        } catch ControlClientError.notRunning {
            print("chestd is not running; it reads the join file when it starts")
        } catch {
            print("chestd did not take it (\(error)); restart it or send it SIGHUP")
        }
    }
}

/// `chest hunt leave`: this reader plays in no hunt.
struct HuntLeaveCommand: ChestCommand {
    static let name = "leave"
    static let abstract = "leave the hunt this chest plays in"
    static let discussion =
        "Forgets the join file; chestd disconnects from the broker. Receipts not yet sent stay in the chest's outbox."

    init(_ values: ParsedValues) throws(UsageError) {}

    func run(settings: Settings) throws {
        let path = settings.configDirectory + "/" + HuntFile.joinedFileName
        guard FileManager.default.fileExists(atPath: path) else { throw ChestError("this chest has joined no hunt") }
        try FileManager.default.removeItem(atPath: path)
        print("left the hunt")
        HuntJoinCommand.tellChestd(settings)
    }
}
