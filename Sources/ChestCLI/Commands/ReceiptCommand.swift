import ChestArguments
import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials
import Glibc

/// `chest receipt ID [--page N] [-o FILE]`: the signed record of an unlock, for the organiser.
struct ReceiptCommand: ChestCommand {
    static let name = "receipt"
    static let abstract = "export a signed receipt of an unlock"
    static let discussion = """
        Writes the receipt of an open page: what chestd saw as it opened (the confirming fixes, the receiver and \
        its trust level, GPS and system time, chestd's version), signed with your identity, as JSON on standard \
        output or into FILE. The organiser checks it with `chest verify RECEIPT MESSAGE.locked`. Without --page, \
        the first open page. In a hunt, chestd publishes each page's receipt by itself.
        """
    static let parameters: [Parameter] = [
        .messageID,
        .option("--page", value: "N", help: "the page (default: the first open one)"),
        .option(
            "--output", "-o", value: "FILE", help: "write the receipt here instead of printing it",
            completion: .files(extension: "json")),
    ]

    var id: String
    var page: Int?
    var output: String?

    init(_ values: ParsedValues) throws(UsageError) {
        id = values.positional("ID")[0]
        page = try values.value("--page", "a page number from 1 to \(Message.maximumPages)") { Int($0) }
        output = values.value("--output")
    }

    func run(settings: Settings) throws {
        let report = try CLI.client(settings).call(ControlRequest.read(id: id), expecting: ReadReport.self)
        guard let open = report.pages.first(where: { $0.open && (page == nil || $0.number == page) }) else {
            throw ChestError(page.map { "page \($0) of \(report.id) is not open" } ?? "no page of \(report.id) is open")
        }
        guard let evidence = open.evidence, let openedAt = open.openedAt, let signature = open.messageSignature else {
            throw ChestError(
                "page \(open.number) of \(report.id) opened without a record (it had no locks, or opened before receipts)"
            )
        }
        let identity = try Identity.loadOrCreate(at: settings.identityPath)
        let receipt = ReceiptProof.signed(
            UnlockReceipt(
                message: report.messageID ?? report.id, messageSignature: signature, title: report.title,
                page: open.number,
                set: open.openedBy, openedAt: openedAt, evidence: evidence, reader: ""),
            proofKey: open.proofKey, identity: identity)
        try OutputFile(checking: output ?? "-").write(checked: receipt.fileBytes)
    }
}
