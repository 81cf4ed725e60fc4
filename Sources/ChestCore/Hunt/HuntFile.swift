import FoundationEssentials

/// A hunt file (docs/HUNTS.md "Hunt files"): the broker, the hunt's ID, the organiser's key and the teams'
/// logins and keys. The organiser's file has every team and the release keys; a join file has one team, with
/// `team` naming it. JSON, pretty, keys sorted, ending in a newline.
package struct HuntFile: Codable, Hashable, Sendable {
    package static let formatName = "chest-hunt"
    package static let version = 1
    /// The version of a file with a start or an end (docs/HUNTS.md "The hunt's start and end"): a chest older
    /// than schedules refuses it by its version instead of ignoring the window.
    package static let scheduledVersion = 2
    /// Larger than any real hunt file: a team takes about 270 bytes, so a city's 5,000 teams 1.3 MB (the former
    /// 1 MiB refused them) and `hunt team add --count`'s 100,000 about 27 MB (docs/HUNTS.md "Sizing").
    package static let sizeLimit = 32 << 20

    package var format: String
    package var version: Int
    /// Made by `chest hunt create`.
    package var id: HuntID
    /// The organiser's name for the hunt: printable, 1...80 characters.
    package var name: String
    /// `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`, written as the organiser wrote it.
    package var broker: BrokerURL
    /// A CA file for mqtts when the broker's certificate is not under the system's CAs.
    package var caFile: String?
    /// The organiser's Ed25519 public key, base64: signs releases.
    package var organiser: String
    /// Receipts carry fix positions only when true.
    package var sharePositions: Bool
    /// The organiser's file: every team; a join file: exactly one.
    package var teams: [HuntTeam]
    /// Set in a join file: the team this reader plays for.
    package var team: TeamName?
    /// The organiser's file only: release name → 32-byte key, base64; absent until the first release key is made.
    package var releases: [ReleaseName: ReleaseKey]?
    /// The organiser's file only: message ID → the page keys `compose --hunt` recorded, for the board's proofs.
    package var messages: [MessageID: HuntMessage]?
    /// When the hunt starts and ends, either absent (docs/HUNTS.md "The hunt's start and end"); the organiser's
    /// signed `schedule` on the broker replaces it.
    package var starts: Date?
    package var ends: Date?
    /// How long each team plays from its own start, in seconds (docs/HUNTS.md "A clock for each team").
    package var limit: Int?
    /// The teams started by hand (`chest hunt start --team`) and when; a join file keeps only its own team's.
    package var started: [String: Date]?
    /// A join file only: the name this device goes by in its team (`chest hunt join --device`), a topic level.
    package var device: String?
    /// The organiser's file only: the broker password of the user `organiser` (the board, releases).
    package var organiserPassword: String?

    /// The broker user of the organiser's commands; no team may take the name.
    package static let organiserUser = "organiser"

    package init(id: HuntID, name: String, broker: BrokerURL, organiser: String, sharePositions: Bool = false) {
        format = Self.formatName
        version = Self.version
        self.id = id
        self.name = name
        self.broker = broker
        self.organiser = organiser
        self.sharePositions = sharePositions
        teams = []
    }

    /// Decodes the fields in the order they are declared, the maps by their keys' text: a key that is not a release
    /// name or a message ID is refused with the sentence `validate` says of a bad entry.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        version = try container.decode(Int.self, forKey: .version)
        id = try container.decode(HuntID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        broker = try container.decode(BrokerURL.self, forKey: .broker)
        caFile = try container.decodeIfPresent(String.self, forKey: .caFile)
        organiser = try container.decode(String.self, forKey: .organiser)
        sharePositions = try container.decode(Bool.self, forKey: .sharePositions)
        teams = try container.decode([HuntTeam].self, forKey: .teams)
        team = try container.decodeIfPresent(TeamName.self, forKey: .team)
        if let texts = try container.decodeIfPresent([String: ReleaseKey].self, forKey: .releases) {
            releases = try Self.keyed(texts) { HuntError(ReleaseName.problem(reading: $0)) }
        }
        if let texts = try container.decodeIfPresent([String: HuntMessage].self, forKey: .messages) {
            messages = try Self.keyed(texts) { HuntError(Self.messageProblem($0)) }
        }
        starts = try container.decodeIfPresent(Date.self, forKey: .starts)
        ends = try container.decodeIfPresent(Date.self, forKey: .ends)
        limit = try container.decodeIfPresent(Int.self, forKey: .limit)
        started = try container.decodeIfPresent([String: Date].self, forKey: .started)
        device = try container.decodeIfPresent(String.self, forKey: .device)
        organiserPassword = try container.decodeIfPresent(String.self, forKey: .organiserPassword)
    }

    /// `texts` keyed by their keys read as `Key`; the first key in order that is not one is `refusal`'s error.
    private static func keyed<Key: TextCodable & Hashable, Value>(
        _ texts: [String: Value], refusal: (String) -> HuntError
    ) throws(HuntError) -> [Key: Value] {
        var map: [Key: Value] = [:]
        for text in texts.keys.sorted() {
            guard let key = Key(text) else { throw refusal(text) }
            map[key] = texts[text]
        }
        return map
    }

    private static func messageProblem(_ id: String) -> String {
        "the page keys of message \(TerminalText.escaped(id)) are not a message ID and 1 to \(Message.maximumPages) keys of 32 bytes in base64 (with valid targets)"
    }

    /// The file's bytes: pretty-printed, keys sorted, ending in a newline.
    package var fileBytes: Data {
        var data = try! ChestJSON.encoder(pretty: true).encode(self)
        data.append(0x0a)
        return data
    }

    /// Reads and checks a hunt file; throws a sentence saying what is wrong.
    package static func decode(_ data: Data) throws(HuntError) -> HuntFile {
        let file = try HuntError.decoding(HuntFile.self, from: data, limit: sizeLimit, what: "not a chest hunt file")
        try file.validate()
        return file
    }

    /// Checks every field as `decode` does; `chest hunt create` and `team add` check before they write.
    package func validate() throws(HuntError) {
        guard format == Self.formatName else { throw HuntError("not a chest hunt file (its format is \"\(format)\")") }
        guard version == Self.version || version == Self.scheduledVersion else {
            throw HuntError(
                "hunt file version \(version) is not supported; this chest reads versions \(Self.version) and \(Self.scheduledVersion)"
            )
        }
        guard version == Self.scheduledVersion || schedule.isEmpty else {
            throw HuntError(
                "a hunt file with \"starts\" or \"ends\" is version \(Self.scheduledVersion), not \(version)")
        }
        if let problem = schedule.problem { throw HuntError(problem) }
        guard (1...80).contains(name.count), !name.unicodeScalars.contains(where: TerminalText.isControl) else {
            throw HuntError("the hunt's name must be 1 to 80 printable characters")
        }
        if let caFile, caFile.isEmpty || caFile.contains("\0") {
            throw HuntError("the CA file's path is empty or not a path")
        }
        guard Self.base64(organiser, bytes: 32) else {
            throw HuntError("the organiser's key is not a base64 Ed25519 public key")
        }
        var names: Set<TeamName> = []
        for team in teams {
            let shown = TerminalText.escaped(team.name.rawValue)
            guard names.insert(team.name).inserted else { throw HuntError("the team \(shown) is listed twice") }
            guard !team.password.isEmpty, team.password.utf8.count <= 256,
                !team.password.unicodeScalars.contains(where: TerminalText.isControl)
            else {
                throw HuntError("team \(shown)'s password is empty, too long or has control characters")
            }
            guard Self.base64(team.publicKey, bytes: 32) else {
                throw HuntError("team \(shown)'s public key is not a base64 Ed25519 public key")
            }
            if let secret = team.secretKey {
                guard let bytes = Data(base64Encoded: secret), bytes.count == 64 else {
                    throw HuntError("team \(shown)'s secret key is not a base64 Ed25519 secret key")
                }
                // An Ed25519 secret key in libsodium's form is the seed followed by the public key.
                guard bytes.suffix(32) == Data(base64Encoded: team.publicKey) else {
                    throw HuntError(
                        "team \(shown)'s secret key does not belong to its public key; run `chest hunt team add` again")
                }
            }
        }
        if let device, !HuntTopic.isValidLevel(device) {
            throw HuntError(
                "the device name \(TerminalText.escaped(device)) is not 1 to 32 letters, digits, - or _")
        }
        if let team {
            guard teams.count == 1, teams[0].name == team else {
                throw HuntError("a join file must list exactly its own team, \(TerminalText.escaped(team.rawValue))")
            }
            guard teams[0].secretKey != nil else {
                throw HuntError(
                    "the join file has no secret key for team \(TerminalText.escaped(team.rawValue)); ask the organiser for a new one"
                )
            }
            guard releases == nil else { throw HuntError("a join file must not carry release keys") }
            guard messages == nil else { throw HuntError("a join file must not carry page keys") }
        }
        for (id, message) in messages ?? [:] {
            guard (1...Message.maximumPages).contains(message.pages.count),
                message.pages.allSatisfy({ Self.base64($0.key, bytes: 32) && ($0.targets ?? []).allSatisfy(\.isValid) })
            else {
                throw HuntError(Self.messageProblem(id.rawValue))
            }
        }
    }

    /// The hunt's start and end as the file has them.
    package var schedule: HuntSchedule { HuntSchedule(starts: starts, ends: ends, limit: limit, teams: started) }

    /// Sets the start and end, and the version that says whether the file has them: a file without a schedule
    /// stays version 1, which every chest reads.
    package mutating func setSchedule(_ schedule: HuntSchedule) {
        starts = schedule.starts
        ends = schedule.ends
        limit = schedule.limit
        started = schedule.teams
        version = schedule.isEmpty ? Self.version : Self.scheduledVersion
    }

    /// What a team's reader joins with: that team only (with its secret key), `team` set, no release keys; nil
    /// when there is no such team or its secret key is not in this file.
    package func joinFile(team name: TeamName) -> HuntFile? {
        guard let member = team(named: name), member.secretKey != nil else { return nil }
        var join = self
        join.teams = [member]
        join.team = name
        join.releases = nil
        join.messages = nil
        join.organiserPassword = nil
        join.started = started?[name.rawValue].map { [name.rawValue: $0] }
        return join
    }

    package var isJoinFile: Bool { team != nil }

    package func team(named name: TeamName) -> HuntTeam? { teams.first { $0.name == name } }

    static func base64(_ text: String, bytes: Int) -> Bool { Data(base64Encoded: text)?.count == bytes }

    /// A decoding error as a sentence naming the field.
    static func sentence(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let names = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return names.isEmpty ? "the file" : "\"\(names.joined(separator: "."))\""
        }
        switch error {
        case .keyNotFound(let key, let context):
            let names = (context.codingPath + [key]).map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return "\"\(names.joined(separator: "."))\" is missing"
        case .typeMismatch(let type, let context): return "\(path(context)) is not \(typeName(type))"
        case .valueNotFound(let type, let context): return "\(path(context)) is null, not \(typeName(type))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Bool.Type: "true or false"
        case is Int.Type, is UInt64.Type, is Double.Type: "a number"
        default: "the right kind of value"
        }
    }
}
