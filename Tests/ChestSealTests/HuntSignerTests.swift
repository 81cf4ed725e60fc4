import ChestCore
import ChestSeal
import Foundation
import Testing

/// Hunt messages signed with a team's key verify after the wire round trip, any edit breaks them, and the gate
/// refuses a forgery with a real signature check.
@Suite struct HuntSignerTests {
    static let red = HuntSigner.newTeamKeys()
    static let blue = HuntSigner.newTeamKeys()
    static let identity: Identity = try! Identity.loadOrCreate(
        at: NSTemporaryDirectory() + "chest-hunt-\(UUID())/identity.json")
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func hunt() -> HuntFile {
        var hunt = HuntFile(
            id: HuntSigner.newHuntID(), name: "Old Town", broker: BrokerURL("mqtt://127.0.0.1:18830")!,
            organiser: identity.publicKeyBase64)
        hunt.teams = [
            HuntTeam(
                name: TeamName("red")!, password: HuntSigner.newPassword(), publicKey: red.publicKey,
                secretKey: red.secretKey),
            HuntTeam(
                name: TeamName("blue")!, password: HuntSigner.newPassword(), publicKey: blue.publicKey,
                secretKey: blue.secretKey),
        ]
        hunt.releases = [ReleaseName("finale")!: HuntSigner.newReleaseKey()]
        return hunt
    }

    static func secret(_ keys: (publicKey: String, secretKey: String)) -> [UInt8] {
        [UInt8](Data(base64Encoded: keys.secretKey)!)
    }

    /// A receipt signed by the reader's identity as `chest receipt` signs it, positions removed for the hunt.
    static func receipt() -> UnlockReceipt {
        let fix = UnlockEvidence.ConfirmingFix(
            Fix(
                mode: 3, coordinate: Coordinate(latitude: 48.85837, longitude: 2.29448),
                altitudeMSL: 35.2, eph: 4.7, epv: 8.1, satellitesUsed: 9, time: t0,
                receivedAt: 1000))
        let evidence = UnlockEvidence(
            locks: [.location, .time], fixes: [fix], source: nil,
            trust: FixTrust(level: .simulated, reasons: ["the receiver is a pseudo-terminal"]),
            gpsTime: t0.addingTimeInterval(0.125), systemTime: t0.addingTimeInterval(0.3), clock: "gps")
        let receipt = UnlockReceipt(
            message: MessageID(bytes: Array(repeating: 3, count: 16)), messageSignature: "c2ln",
            title: "Clue «1»", page: 2, set: nil, openedAt: t0.addingTimeInterval(0.3),
            evidence: evidence, reader: "")
        return ReceiptSigner.sign(HuntEnvelope.shareable(receipt, sharePositions: false), with: identity)
    }

    static func envelopes(hunt: HuntID) -> [HuntEnvelope] {
        [
            HuntSigner.sign(
                HuntEnvelope(hunt: hunt, sender: "red", id: 1, sent: t0, receipt: receipt()), secretKey: secret(red)),
            HuntSigner.sign(
                HuntEnvelope(
                    hunt: hunt, sender: "red", id: 2, sent: t0,
                    status: TeamStatus(online: true, pagesOpen: 1, trust: .hardware, fixMode: 3)),
                secretKey: secret(red)),
            HuntSigner.sign(
                HuntEnvelope(
                    hunt: hunt, id: 3, sent: t0, release: HuntRelease(name: "finale", key: HuntSigner.newReleaseKey())),
                with: identity),
        ]
    }

    @Test func signedEnvelopesVerifyAfterTheWireRoundTrip() throws {
        let hunt = Self.hunt()
        for envelope in Self.envelopes(hunt: hunt.id) {
            #expect(HuntSigner.isValid(envelope))
            let received = try HuntEnvelope.decode(envelope.bytes)
            #expect(HuntSigner.isValid(received))
            #expect(received == envelope)
        }
        let received = try HuntEnvelope.decode(Self.envelopes(hunt: hunt.id)[0].bytes)
        guard case let .receipt(receipt, _) = received.body else {
            Issue.record("not a receipt: \(received.kind)")
            return
        }
        try ReceiptSigner.verify(receipt)
        #expect(receipt.evidence.fixes.first?.latitude == nil)
        #expect(Self.envelopes(hunt: hunt.id)[2].key == Self.identity.publicKeyBase64)
        #expect(HuntSigner.sign(Self.envelopes(hunt: hunt.id)[0], team: hunt.teams[1])?.key == Self.blue.publicKey)
        var keyless = hunt.teams[0]
        keyless.secretKey = nil
        #expect(HuntSigner.sign(Self.envelopes(hunt: hunt.id)[0], team: keyless) == nil)
    }

    static let edits: [(String, @Sendable (inout HuntEnvelope) -> Void)] = [
        ("hunt", { $0.hunt = HuntID(String(repeating: "0", count: 32))! }),
        ("sender", { $0.sender = "blue" }),
        ("kind", { if case .receipt = $0.body { $0.body = .status(TeamStatus(online: true, pagesOpen: 1)) } }),
        ("id", { $0.id += 1 }),
        ("sent", { $0.sent += 0.001 }),
        (
            "receipt page",
            {
                if case .receipt(var receipt, let claim) = $0.body {
                    receipt.page = 3
                    $0.body = .receipt(receipt, readerClaim: claim)
                }
            }
        ),
        (
            "receipt title",
            {
                if case .receipt(var receipt, let claim) = $0.body {
                    receipt.title = "Clue 2"
                    $0.body = .receipt(receipt, readerClaim: claim)
                }
            }
        ),
        (
            "status",
            {
                if case var .status(status) = $0.body {
                    status.pagesOpen = 9
                    $0.body = .status(status)
                }
            }
        ),
        (
            "status trust",
            {
                if case var .status(status) = $0.body {
                    status.trust = .suspect
                    $0.body = .status(status)
                }
            }
        ),
        (
            "release key",
            {
                if case var .release(release) = $0.body {
                    release.key = ReleaseKey(bytes: [UInt8](repeating: 1, count: 32))
                    $0.body = .release(release)
                }
            }
        ),
        (
            "release name",
            {
                if case var .release(release) = $0.body {
                    release.name = "other"
                    $0.body = .release(release)
                }
            }
        ),
        ("format", { $0.format = "chest-hunt-message2" }),
        ("key", { $0.key = HuntSignerTests.blue.publicKey }),
        ("signature", { $0.signature = Data(repeating: 0, count: 64).base64EncodedString() }),
        ("unsigned", { $0.signature = nil }),
    ]

    @Test(arguments: edits.indices)
    func anyEditMakesItInvalid(index: Int) throws {
        let (label, edit) = Self.edits[index]
        var changed = 0
        for envelope in Self.envelopes(hunt: Self.hunt().id) {
            var edited = envelope
            edit(&edited)
            guard edited != envelope else { continue }
            changed += 1
            #expect(!HuntSigner.isValid(edited), "\(label) on a \(envelope.kind)")
        }
        #expect(changed > 0, "\(label) changed nothing")
    }

    @Test func theGateRefusesAForgeryAndAReleaseFromTheWrongKey() {
        let hunt = Self.hunt()
        var gate = HuntGate(hunt: hunt)
        func admit(_ envelope: HuntEnvelope, _ topic: String) -> HuntGate.Verdict {
            gate.admit(envelope, topic: topic, signatureValid: HuntSigner.isValid(envelope))
        }
        let good = Self.envelopes(hunt: hunt.id)[0]
        var forged = good
        if case .receipt(var receipt, let claim) = good.body {
            receipt.page = 3
            forged.body = .receipt(receipt, readerClaim: claim)
        }
        #expect(admit(forged, HuntTopic.receipt(hunt: hunt.id, team: "red", id: 1)) == .refused(.badSignature))
        var claimed = HuntSigner.sign(good, secretKey: Self.secret(Self.blue))
        claimed.key = Self.red.publicKey
        #expect(
            admit(claimed, HuntTopic.receipt(hunt: hunt.id, team: "red", id: 1)) == .refused(.badSignature),
            "blue signing as red while naming red's key")
        let teamRelease = HuntSigner.sign(
            HuntEnvelope(
                hunt: hunt.id, id: 9, sent: Self.t0,
                release: HuntRelease(name: "finale", key: HuntSigner.newReleaseKey())),
            secretKey: Self.secret(Self.red))
        #expect(admit(teamRelease, HuntTopic.release(hunt: hunt.id, name: "finale")) == .refused(.unknownKey))
        #expect(admit(good, HuntTopic.receipt(hunt: hunt.id, team: "red", id: 1)) == .accepted)
        #expect(admit(Self.envelopes(hunt: hunt.id)[2], HuntTopic.release(hunt: hunt.id, name: "finale")) == .accepted)
    }

    @Test func newKeysIDsAndPasswordsHaveTheirShapes() throws {
        let keys = HuntSigner.newTeamKeys()
        #expect(Data(base64Encoded: keys.publicKey)?.count == 32 && Data(base64Encoded: keys.secretKey)?.count == 64)
        #expect(keys.publicKey != HuntSigner.newTeamKeys().publicKey)
        #expect(Data(base64Encoded: HuntSigner.newReleaseKey().base64)?.count == 32)
        let id = HuntSigner.newHuntID()
        #expect(id.rawValue.count == 32 && id.rawValue.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(id != HuntSigner.newHuntID())
        let passwords = (0..<100).map { _ in HuntSigner.newPassword() }
        #expect(Set(passwords).count == 100)
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        #expect(passwords.allSatisfy { $0.count == 24 && $0.allSatisfy(alphabet.contains) })
        let hunt = Self.hunt()
        #expect(try HuntFile.decode(hunt.fileBytes) == hunt)
    }
}
