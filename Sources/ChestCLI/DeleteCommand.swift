import ChestCore

/// `chest delete ID`
struct DeleteCommand: MessageCommand {
    static let name = "delete"
    static let abstract = "remove a message for good"
    static let discussion = "Removes a message and its state for good."
    static let operation = ControlRequest.Operation.delete
    static let done = "deleted"

    var id: String
}
