import ChestArguments
import ChestCore
import ChestIO
import ChestMQTT
import ChestSeal
import FoundationEssentials
import Glibc

/// `chest hunt adjust TEAM +N|-N REASON --hunt FILE`: the organiser's bonus or deduction, signed and kept by the
/// broker for the board (docs/HUNTS.md "Adjustments").
struct HuntAdjustCommand: ChestCommand {
    static let name = "adjust"
    static let abstract = "give a team bonus points or take points away, with a reason the board shows"
    static let synopses = ["TEAM +POINTS|-POINTS REASON --hunt FILE [--timeout SECONDS]"]
    static let discussion = """
        Publishes the adjustment to the hunt's broker as a retained message signed with your identity (the \
        organiser's): every board adds it to the team's points and shows it with its reason, now or when it \
        next starts. An adjustment cannot be withdrawn; publish the opposite one (chest hunt adjust red -5 \
        "bonus given twice").

        example:
          chest hunt adjust red +5 "helped another team" --hunt spring.hunt
        """
    static let parameters: [Parameter] = [
        .positional("TEAM", help: "the team, as chest hunt team add named it"),
        .positional("POINTS", help: "+N to add, -N to take away (N from 1 to \(HuntAdjustment.limit))"),
        .positional("REASON", arity: .oneOrMore, help: "why, shown on the board (1 to 200 characters)"),
        .huntFile,
        .brokerTimeout,
    ]

    var team: String
    var points: Int
    var reason: String
    var organiser: OrganiserOptions

    init(_ values: ParsedValues) throws(UsageError) {
        team = values.positional("TEAM")[0].canonicallyComposed
        let text = values.positional("POINTS")[0]
        guard let first = text.first, first == "+" || first == "-", text.dropFirst().allSatisfy(\.isASCII),
            let value = Int(text), value != 0, abs(value) <= HuntAdjustment.limit
        else {
            throw UsageError("POINTS is +N or -N, such as +5 or -3 (N from 1 to \(HuntAdjustment.limit)), not \(text)")
        }
        points = value
        reason = values.positional("REASON").joined(separator: " ")
        guard HuntAdjustment.isValidReason(reason) else {
            throw UsageError(
                "REASON is 1 to 200 characters without control characters; the board shows it beside the points")
        }
        organiser = try OrganiserOptions(values, command: "hunt adjust")
    }

    func run(settings: Settings) throws {
        let hunt = try organiser.readHunt(refusingJoinFile: "adjustments need the organiser's hunt file")
        guard TeamName(team).flatMap(hunt.team(named:)) != nil else {
            let known = hunt.teams.map(\.name.rawValue).sorted().joined(separator: ", ")
            throw ChestError(
                "\(organiser.huntPath) has no team \(team)"
                    + (known.isEmpty ? "; add it with chest hunt team add" : " (it has \(known))"))
        }
        let identity = try OrganiserPost.identity(settings, hunt: hunt, signing: "adjustments are")
        let id = OrganiserPost.newID()
        let envelope = HuntEnvelope(
            hunt: hunt.id, id: id, sent: Date(), adjust: HuntAdjustment(team: team, points: points, reason: reason))
        let topic = HuntTopic.adjust(hunt: hunt.id, id: id)
        try OrganiserPost.publish(
            HuntSigner.sign(envelope, with: identity), topic: topic, hunt: hunt, purpose: "adjust",
            timeout: organiser.timeout, what: "the adjustment")
        print(
            "\(team) \(points > 0 ? "+" : "")\(points) point\(abs(points) == 1 ? "" : "s"): the broker keeps it for the board, which counts it when it hears it"
        )
    }
}
