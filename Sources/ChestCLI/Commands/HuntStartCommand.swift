import ChestArguments
import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials
import Glibc

/// `chest hunt start --hunt FILE`: publishes the hunt's start key, signed by the organiser, for an organiser who runs
/// no board (docs/HUNTS.md "The start key").
struct HuntStartCommand: ChestCommand {
    static let name = "start"
    static let abstract = "start the hunt now: publish its start key, which every page of the hunt needs"
    static let synopses = ["--hunt FILE [--timeout SECONDS]"]
    static let discussion = """
        Publishes the hunt's start key to the broker as a retained release signed with your identity (the \
        organiser's): every team's chestd hears it now or when it next connects, and from then on the hunt's pages \
        open as their locks hold. Before it, nothing composed with --hunt FILE for a hunt with a start opens \
        anywhere, whatever a clock says. chest board publishes it by itself at the start in force; run this when \
        no board runs. The key was made by chest compose --hunt FILE; once published it cannot be taken back.
        """
    static let parameters: [Parameter] = [
        .huntFile,
        .option("--timeout", value: "SECONDS", help: "how long to wait for the broker (default 10)"),
    ]

    var huntPath: String
    var timeout: Double

    init(_ values: ParsedValues) throws(UsageError) {
        huntPath = try values.huntPath("hunt start")
        timeout =
            try values.value("--timeout", "--timeout is a number of seconds") {
                Double($0).flatMap { $0 > 0 ? $0 : nil }
            } ?? 10
    }

    func run(settings: Settings) throws {
        let hunt = try HuntFile.read(path: huntPath)
        guard !hunt.isJoinFile else {
            throw ChestError("\(huntPath) is a team's join file; the start key is in the organiser's hunt file")
        }
        guard let key = hunt.releases?[.start] else {
            throw ChestError(
                "\(huntPath) has no start key: no message was composed with --hunt \(huntPath) while the hunt had a start, so nothing waits for one"
            )
        }
        let identity = try OrganiserPost.identity(settings, hunt: hunt, signing: "the start key is")
        let envelope = HuntStartCommand.envelope(hunt: hunt, key: key, id: OrganiserPost.newID())
        let topic = HuntTopic.release(hunt: hunt.id, name: HuntRelease.startName)
        try OrganiserPost.publish(
            HuntSigner.sign(envelope, with: identity), topic: topic, hunt: hunt, purpose: "start",
            timeout: timeout, what: "the start key")
        print("started the hunt: the broker keeps its start key for every team (\(topic))")
    }

    /// The release that carries the start key, unsigned (the board signs it as this command does).
    static func envelope(hunt: HuntFile, key: ReleaseKey, id: UInt64) -> HuntEnvelope {
        HuntEnvelope(hunt: hunt.id, id: id, sent: Date(), release: HuntRelease(name: HuntRelease.startName, key: key))
    }
}
