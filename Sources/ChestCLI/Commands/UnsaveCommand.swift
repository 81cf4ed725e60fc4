import ChestCore

/// `chest unsave ID`
struct UnsaveCommand: MessageCommand {
    static let name = "unsave"
    static let abstract = "move a message back to the regular chest"
    static let discussion = "Moves a message from the saved chest back to the regular one."
    static func request(for id: String) -> ControlRequest { .unsave(id: id) }
    static let done = "moved back to the regular chest:"

    var id: String
}
