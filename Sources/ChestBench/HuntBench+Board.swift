import ChestCore
import ChestSeal
import Foundation

extension HuntBench {
    /// What `chest board` does with each message (the steps of ChestCLI's `BoardFeed.receive`, repeated here
    /// since chest-bench does not link the command line), timed step by step, then the leaderboard.
    static func measureBoard() {
        print("chest-bench: the organiser's board, \(teams) teams, \(teams * receiptsPerTeam) receipts")
        let (hunt, messages) = make(broker: "mqtt://127.0.0.1")
        let journalPath = NSTemporaryDirectory() + "/chest-hunt-bench-\(getpid()).board"
        _ = FileManager.default.createFile(atPath: journalPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: journalPath) }
        let journal = FileHandle(forWritingAtPath: journalPath)!
        let residentBefore = ChestBench.residentKilobytes()
        var board = HuntBoard(hunt: hunt)
        var gate = HuntGate(hunt: hunt)
        var believed: Set<String> = []
        var steps = [Double](repeating: 0, count: 7)
        var perMessage: [Double] = []
        perMessage.reserveCapacity(messages.count)
        var (unlocks, refused, bytes) = (0, 0, 0)
        let total = DispatchTime.now()
        for (topic, payload) in messages {
            var clock = DispatchTime.now()
            func lap(_ step: Int) {
                let now = DispatchTime.now()
                steps[step] += Double(now.uptimeNanoseconds - clock.uptimeNanoseconds) / 1e9
                clock = now
            }
            let first = clock
            let envelope = try! HuntEnvelope.decode(payload)
            lap(0)
            let valid = HuntSigner.isValid(envelope)
            lap(1)
            guard !believed.contains(envelope.signature!),
                case .accepted = gate.admit(envelope, topic: topic, signatureValid: valid)
            else {
                refused += 1
                continue
            }
            believed.insert(envelope.signature!)
            lap(2)
            guard case let .receipt(receipt, _) = envelope.body else {
                preconditionFailure("the bench sends only receipts")
            }
            var problem: String?
            do { try ReceiptSigner.verify(receipt) } catch { problem = error.description }
            lap(3)
            let proof = ReceiptProof.check(receipt, hunt: hunt)
            lap(4)
            let events = board.record(
                envelope, receiptProblem: problem, proof: proof,
                claimedReader: ReaderClaim.claimedReader(envelope), receivedAt: Date())
            lap(5)
            // `chest board --json` prints each event; every board keeps the message in its journal.
            for event in events {
                bytes += event.line.utf8.count
                if case .unlock = event { unlocks += 1 }
            }
            var line = try! JSONEncoder().encode(
                JournalEntry(at: Date(), topic: topic, payload: payload.base64EncodedString()))
            line.append(0x0a)
            journal.write(line)
            lap(6)
            perMessage.append(Double(clock.uptimeNanoseconds - first.uptimeNanoseconds) / 1e9)
        }
        let elapsed = ChestBench.elapsed(since: total)
        let residentAfter = ChestBench.residentKilobytes()
        let leaderboardStart = DispatchTime.now()
        let text = board.leaderboardText()
        let leaderboard = ChestBench.elapsed(since: leaderboardStart)
        try? journal.close()
        let journalSize = (try? FileManager.default.attributesOfItem(atPath: journalPath)[.size] as? Int) ?? 0

        perMessage.sort()
        func quantile(_ q: Double) -> Double {
            perMessage[min(perMessage.count - 1, Int(Double(perMessage.count) * q))] * 1e6
        }
        print(
            String(
                format:
                    "  %d messages in %.2f s (%d unlocks, %d refused): per message mean %.0f µs, median %.0f µs, p99 %.0f µs, max %.0f µs",
                messages.count, elapsed, unlocks, refused, elapsed / Double(messages.count) * 1e6,
                quantile(0.5), quantile(0.99), (perMessage.last ?? 0) * 1e6))
        let names = [
            "decode", "envelope signature", "gate", "receipt signature", "proof", "claim + board.record",
            "event lines + journal",
        ]
        print(
            "  mean per step: "
                + zip(names, steps).map { "\($0) " + String(format: "%.0f µs", $1 / Double(messages.count) * 1e6) }
                .joined(separator: ", "))
        print(
            String(
                format: "  leaderboardText (%d rows): %.2f ms", text.split(separator: "\n").count - 1,
                leaderboard * 1000))
        print(
            String(
                format: "  VmRSS %.1f MB before, %.1f MB after (+%.1f MB); journal %.1f MB; --json lines %.1f MB",
                Double(residentBefore) / 1024, Double(residentAfter) / 1024,
                Double(residentAfter - residentBefore) / 1024,
                Double(journalSize) / 1e6, Double(bytes) / 1e6))
        withExtendedLifetime((board, gate, believed)) {}
    }

    /// The journal's line, as `BoardFeed` writes it.
    private struct JournalEntry: Codable {
        var at: Date
        var topic: String
        var payload: String
    }
}
