import ChestArguments
import ChestCore
import ChestIO
import ChestMQTT
import ChestSeal
import FoundationEssentials
import Glibc

/// `chest hunt release NAME --hunt FILE`: publishes a release key, signed by the organiser.
struct HuntReleaseCommand: ChestCommand {
    static let name = "release"
    static let abstract = "release the pages locked with --lock release=NAME, on every team"
    static let synopses = ["NAME --hunt FILE [--timeout SECONDS]"]
    static let discussion = """
        Publishes the release's key to the hunt's broker as a retained message signed with your identity (the \
        organiser's): every team's chestd opens the pages sealed under it as soon as it hears it, now or when \
        it next connects. The key was made by chest compose --lock release=NAME --hunt FILE.
        """
    static let parameters: [Parameter] = [
        .positional("NAME", help: "the release's name"),
        .huntFile,
        .brokerTimeout,
    ]

    var release: String
    var organiser: OrganiserOptions

    init(_ values: ParsedValues) throws(UsageError) {
        release = values.positional("NAME")[0]
        organiser = try OrganiserOptions(values, command: "hunt release")
    }

    func run(settings: Settings) throws {
        let hunt = try HuntFile.read(path: organiser.huntPath)
        guard let key = ReleaseName(release).flatMap({ hunt.releases?[$0] }) else {
            let known = hunt.releases?.keys.sorted().map(\.rawValue).joined(separator: ", ") ?? ""
            throw ChestError(
                "\(organiser.huntPath) has no release \(release)"
                    + (known.isEmpty
                        ? "; compose a message with --lock release=\(release) --hunt \(organiser.huntPath) first"
                        : " (it has \(known))"))
        }
        let identity = try OrganiserPost.identity(settings, hunt: hunt, signing: "releases are")
        let envelope = HuntEnvelope(
            hunt: hunt.id, id: OrganiserPost.newID(), sent: Date(), release: HuntRelease(name: release, key: key))
        let topic = HuntTopic.release(hunt: hunt.id, name: release)
        try OrganiserPost.publish(
            HuntSigner.sign(envelope, with: identity), topic: topic, hunt: hunt, purpose: "release",
            timeout: organiser.timeout, what: "the release")
        print("released \u{201C}\(release)\u{201D}: the broker keeps it for every team")
    }
}
