import ChestArguments
import ChestIO

/// `chest quest …`: quest files written from what organisers already have (docs/QUEST.md).
struct QuestCommand: ChestCommand {
    static let name = "quest"
    static let abstract = "write a quest file from a geocaching GPX (chest quest from)"
    static let discussion = """
        A GPX of caches (a Pocket Query, an Adventure Lab export, a c:geo, GSAK, Opencaching or TerraCaching \
        export) is a quest already: preview, simulate and compose --quest take it as it is. chest quest from \
        writes the same course as a quest file to edit. See docs/QUEST.md "A course from a geocaching GPX".

        examples:
          chest preview stages.gpx                        every page, question and hint
          chest simulate stages.gpx walk.gpx              a recorded walk past every stage
          chest quest from stages.gpx -o stages.quest     to add answers, points or a start
          chest compose --quest stages.quest -o stages/   or --quest stages.gpx, as it is
        """
    static var subcommands: [any ParsableCommand.Type] { [QuestFromCommand.self] }

    init(_ values: ParsedValues) throws(UsageError) {}

    func run(settings: Settings) throws {
        print(HelpText.help(for: Self.self, path: ["chest", Self.name]))
    }
}
