import ChestArguments
import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials
import Glibc

/// `chest verify RECEIPT MESSAGE [--hunt FILE]`: the organiser's check of a reader's unlock receipt, saying what
/// is proven and what is only the reader's claim (docs/HUNTS.md "Proof of opening").
struct VerifyCommand: ChestCommand {
    static let name = "verify"
    static let abstract = "check an unlock receipt against the message it claims"
    static let discussion = """
        Checks the receipt's signature and that it belongs to that message (the same sealed file) and page, then \
        says what is proven. With --hunt, the organiser's hunt file where compose --hunt recorded the page keys, \
        the receipt's proof of opening is checked: only whoever recovered the page's key could make it (for a \
        guarded page, whoever had the file). Without it the opening is not proven: the receipt shows only that \
        some reader key signed it. The evidence (fixes, trust) is always the reader's claim. A forged, edited or \
        mismatched receipt is refused with the reason. Works without chestd.
        """
    static let parameters: [Parameter] = [
        .positional("RECEIPT", help: "the receipt file (from chest receipt)", completion: .files(extension: "json")),
        .positional("MESSAGE", help: "the message file you sent", completion: .files(extension: "locked")),
        .option(
            "--hunt", value: "FILE", help: "the organiser's hunt file, whose page keys check the proof of opening",
            completion: .files(extension: "hunt")),
    ]

    var receiptPath: String
    var messagePath: String
    var huntPath: String?

    init(_ values: ParsedValues) throws(UsageError) {
        receiptPath = values.positional("RECEIPT")[0]
        messagePath = values.positional("MESSAGE")[0]
        huntPath = values.value("--hunt")
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
        guard let huntPath else {
            print(
                Self.text(
                    receipt,
                    proof: "signed by reader key \(receipt.reader) (not known to you); the opening is "
                        + "not proven (give --hunt FILE, the organiser's hunt file, to check its proof); the evidence "
                        + "(fixes, trust) is the reader's claim"))
            return
        }
        let hunt = try HuntFile.read(path: huntPath)
        guard !hunt.isJoinFile else {
            throw ChestError("\(huntPath) is a team's join file; the proofs need the organiser's hunt file")
        }
        switch ReceiptProof.check(receipt, hunt: hunt) {
        case .unknownMessage:
            throw ChestError(
                "\(receiptPath): not proven: message \(receipt.message) was not composed for this hunt (compose --hunt \(huntPath))"
            )
        case let .noSuchPage(count):
            throw ChestError(
                "\(receiptPath): not proven: the hunt file has \(count) pages for this message, not a page \(receipt.page)"
            )
        case .missing:
            throw ChestError("\(receiptPath): not proven: the receipt carries no proof of opening")
        case .bad:
            throw ChestError("\(receiptPath): not proven: the proof of opening was not made with the page's key")
        case .guarded:
            print(
                Self.text(
                    receipt,
                    proof: "unproven: guarded page: the proof was made with the page's key, which is in "
                        + "the file for whoever has it; signed by reader key \(receipt.reader); the evidence (fixes, "
                        + "trust) is the reader's claim"))
        case .proven:
            print(
                Self.text(
                    receipt,
                    proof: "proven: opened by whoever holds reader key \(receipt.reader) (the proof was "
                        + "made with the page's key); the evidence (fixes, trust) is the reader's claim"))
        }
    }

    static func text(_ receipt: UnlockReceipt, proof: String) -> String {
        let evidence = receipt.evidence
        func time(_ date: Date?) -> String { date.map { LockReason.format($0, .current, seconds: true) } ?? "unknown" }
        var lines = [
            "receipt: \"\(TerminalText.escaped(receipt.title))\" (\(receipt.message)) page \(receipt.page)"
                + (receipt.set.map { " by set \($0.rawValue.uppercased())" } ?? ""),
            Output.pad("proof", 11) + proof,
            Output.pad("opened", 11) + time(receipt.openedAt) + " (claimed)",
            Output.pad("locks", 11) + evidence.locks.map(\.rawValue).joined(separator: ", "),
            Output.pad("trust", 11) + evidence.trust.description + " (claimed)",
            Output.pad("receiver", 11)
                + (evidence.source.map { "\($0.description), \($0.kind.rawValue)" } ?? "unknown"),
            Output.pad("clock", 11) + "system \(time(evidence.systemTime)), GPS \(time(evidence.gpsTime)); "
                + "time locks followed the \(evidence.clock == "gps" ? "GPS" : "system") clock",
            Output.pad("reader", 11) + receipt.reader,
            Output.pad("chestd", 11) + evidence.chestVersion,
        ]
        for (index, fix) in evidence.fixes.enumerated() {
            let position =
                fix.latitude.flatMap { lat in fix.longitude.map { String(printf: "%.6f, %.6f", lat, $0) } }
                ?? "no position"
            let altitude = fix.altitudeMSL.map { String(printf: ", %.1f m", $0) } ?? ""
            let errors = [fix.eph.map { "eph \(Int($0.rounded())) m" }, fix.epv.map { "epv \(Int($0.rounded())) m" }]
                .compactMap { $0 }.joined(separator: ", ")
            lines.append(
                Output.pad(index == 0 ? "fixes" : "", 11) + "\(time(fix.time))  \(position)\(altitude), "
                    + "mode \(fix.mode), \(fix.satellitesUsed.map { "\($0) satellites" } ?? "satellites unknown")"
                    + (errors.isEmpty ? "" : ", " + errors))
        }
        return lines.joined(separator: "\n")
    }
}
