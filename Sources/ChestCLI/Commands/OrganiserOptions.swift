import ChestArguments
import ChestCore
import ChestIO

/// What the organiser's commands that post to the hunt's broker (`chest hunt start`, `release`, `schedule`, `say`,
/// `adjust`) share: the organiser's hunt file, `--hunt FILE`, and how long to wait for the broker, `--timeout`.
struct OrganiserOptions {
    var huntPath: String
    var timeout: Double

    /// - Parameter command: the command as the error names it ("hunt start").
    init(_ values: ParsedValues, command: String) throws(UsageError) {
        huntPath = try values.huntPath(command)
        timeout =
            try values.value("--timeout", "--timeout is a number of seconds") {
                Double($0).flatMap { $0 > 0 ? $0 : nil }
            } ?? 10
    }

    /// The organiser's hunt file; a team's join file is refused with `joinFileRefusal`, which says what only the
    /// organiser's file has ("the start key is in the organiser's hunt file").
    func readHunt(refusingJoinFile joinFileRefusal: String) throws -> HuntFile {
        let hunt = try HuntFile.read(path: huntPath)
        guard !hunt.isJoinFile else { throw ChestError("\(huntPath) is a team's join file; \(joinFileRefusal)") }
        return hunt
    }
}

extension Parameter {
    /// `--timeout SECONDS` of the organiser's commands.
    static let brokerTimeout = Parameter.option(
        "--timeout", value: "SECONDS", help: "how long to wait for the broker (default 10)")
}
