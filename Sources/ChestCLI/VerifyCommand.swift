import ChestArguments
import ChestCore
import ChestIO
import ChestSeal
import Foundation

/// `chest verify RECEIPT MESSAGE`: the organiser's check of a reader's unlock receipt.
struct VerifyCommand: ChestCommand {
    static let name = "verify"
    static let abstract = "check an unlock receipt against the message it claims"
    static let discussion = """
        Checks the receipt's signature and that it belongs to that message (the same sealed file) and page, then \
        shows the evidence and its trust level. A forged, edited or mismatched receipt is refused with the reason. \
        Works without chestd.
        """
    static let parameters: [Parameter] = [
        .positional("RECEIPT", help: "the receipt file (from chest receipt)", completion: .files(extension: "json")),
        .positional("MESSAGE", help: "the message file you sent", completion: .files(extension: "locked")),
    ]

    var receiptPath: String
    var messagePath: String

    init(_ values: ParsedValues) throws(UsageError) {
        receiptPath = values.positional("RECEIPT")[0]
        messagePath = values.positional("MESSAGE")[0]
    }

    func run(settings: Settings) throws {
        let receipt: UnlockReceipt
        let message: Message
        do {
            receipt = try UnlockReceipt.decode(try MessageFileReader.read(path: receiptPath))
            try ReceiptSigner.verify(receipt)
        } catch {
            throw ChestError("\(receiptPath): refused: \(error)")
        }
        do {
            message = try MessageFile.decode(try MessageFileReader.read(path: messagePath))
            try Sealer.verify(message)
        } catch {
            throw ChestError("\(messagePath): \(error)")
        }
        if let mismatch = receipt.mismatch(with: message) { throw ChestError("\(receiptPath): refused: \(mismatch)") }
        print(Self.text(receipt))
    }

    static func text(_ receipt: UnlockReceipt) -> String {
        let evidence = receipt.evidence
        func time(_ date: Date?) -> String { date.map { LockReason.format($0, .current, seconds: true) } ?? "unknown" }
        var lines = [
            "valid receipt: \"\(receipt.title)\" (\(receipt.message)) page \(receipt.page)"
                + (receipt.set.map { " by set \($0.rawValue.uppercased())" } ?? ""),
            Output.pad("opened", 11) + time(receipt.openedAt),
            Output.pad("locks", 11) + evidence.locks.map(\.rawValue).joined(separator: ", "),
            Output.pad("trust", 11) + evidence.trust.description,
            Output.pad("receiver", 11) + (evidence.source.map { "\($0.description), \($0.kind.rawValue)" } ?? "unknown"),
            Output.pad("clock", 11) + "system \(time(evidence.systemTime)), GPS \(time(evidence.gpsTime)); "
                + "time locks followed the \(evidence.clock == "gps" ? "GPS" : "system") clock",
            Output.pad("reader", 11) + receipt.reader,
            Output.pad("chestd", 11) + evidence.chestVersion,
        ]
        for (index, fix) in evidence.fixes.enumerated() {
            let position = fix.latitude.flatMap { lat in fix.longitude.map { String(format: "%.6f, %.6f", lat, $0) } } ?? "no position"
            let altitude = fix.altitudeMSL.map { String(format: ", %.1f m", $0) } ?? ""
            let errors = [fix.eph.map { "eph \(Int($0.rounded())) m" }, fix.epv.map { "epv \(Int($0.rounded())) m" }]
                .compactMap { $0 }.joined(separator: ", ")
            lines.append(Output.pad(index == 0 ? "fixes" : "", 11) + "\(time(fix.time))  \(position)\(altitude), "
                + "mode \(fix.mode), \(fix.satellitesUsed.map { "\($0) satellites" } ?? "satellites unknown")"
                + (errors.isEmpty ? "" : ", " + errors))
        }
        return lines.joined(separator: "\n")
    }
}
