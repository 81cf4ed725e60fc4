import ChestCore

/// `chest save ID`
struct SaveCommand: MessageCommand {
    static let name = "save"
    static let abstract = "move a message to the saved chest (at most \(ChestKind.savedLimit))"
    static let discussion = "Moves a message to the saved chest, which holds at most \(ChestKind.savedLimit)."
    static func request(for id: String) -> ControlRequest { .save(id: id) }
    static let done = "saved"

    var id: String
}
