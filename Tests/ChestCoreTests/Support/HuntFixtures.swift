import Foundation

@testable import ChestCore

/// Builders shared by the hunt tests. Keys are fixed bytes: ChestCore checks their shape, not their signatures.
enum HuntFixture {
    static let huntID = HuntID("0123456789abcdef0123456789abcdef")!
    static let otherHuntID = HuntID("fedcba9876543210fedcba9876543210")!

    static func key(_ byte: UInt8, count: Int = 32) -> String {
        Data(repeating: byte, count: count).base64EncodedString()
    }

    /// The key `CoreFixture.message` seals with: the fixtures' messages are the hunt's (`Engine.isHuntMessage`).
    static let organiserKey = key(7)

    static func releaseKey(_ byte: UInt8) -> ReleaseKey { ReleaseKey(key(byte))! }

    /// A team whose secret key has libsodium's shape: 32 seed bytes, then the public key.
    static func team(_ name: String, _ byte: UInt8) -> HuntTeam {
        HuntTeam(
            name: TeamName(name)!, password: "pw-\(name)-0123456789ab", publicKey: key(byte),
            secretKey: (Data(repeating: 0xee, count: 32) + Data(repeating: byte, count: 32)).base64EncodedString())
    }

    /// An organiser's file with teams red (key 0x10), blue (0x11) and green (0x12) and one release key.
    static func hunt(share: Bool = false) -> HuntFile {
        var hunt = HuntFile(
            id: huntID, name: "Old Town", broker: BrokerURL("mqtts://broker.example:8883")!, organiser: organiserKey,
            sharePositions: share)
        hunt.teams = [team("red", 0x10), team("blue", 0x11), team("green", 0x12)]
        hunt.releases = [ReleaseName("finale")!: releaseKey(0x20)]
        return hunt
    }

    static func receipt(
        message: UInt8 = 1, page: Int = 1, openedAt seconds: Double = 0,
        trust: FixTrust.Level = .hardware
    ) -> UnlockReceipt {
        let fix = UnlockEvidence.ConfirmingFix(CoreFixture.fix(at: seconds))
        let evidence = UnlockEvidence(
            locks: [.location], fixes: [fix], source: nil, trust: FixTrust(level: trust),
            gpsTime: nil, systemTime: CoreFixture.t0.addingTimeInterval(seconds), clock: "system",
            chestVersion: "test")
        var receipt = UnlockReceipt(
            message: CoreFixture.id(message), messageSignature: key(9, count: 64), title: "Clue \(message)",
            page: page, set: nil, openedAt: CoreFixture.t0.addingTimeInterval(seconds),
            evidence: evidence, reader: key(0x30))
        receipt.signature = key(0x31, count: 64)
        return receipt
    }

    /// A "signed" envelope: the key the hunt file knows for `sender` (unless `key` says otherwise), and a
    /// signature of the right shape.
    static func signed(_ envelope: HuntEnvelope, key: String? = nil) -> HuntEnvelope {
        var signed = envelope
        signed.key =
            key
            ?? (envelope.sender == HuntEnvelope.organiserSender
                ? organiserKey
                : TeamName(envelope.sender).flatMap { hunt().team(named: $0) }?.publicKey ?? Self.key(0x7f))
        signed.signature = Self.key(0x40, count: 64)
        return signed
    }

    static func receiptEnvelope(
        _ team: String, id: UInt64, receipt: UnlockReceipt = receipt(), hunt: HuntID = huntID,
        sent seconds: Double = 0
    ) -> HuntEnvelope {
        signed(
            HuntEnvelope(
                hunt: hunt, sender: team, id: id, sent: CoreFixture.t0.addingTimeInterval(seconds), receipt: receipt))
    }

    static func statusEnvelope(
        _ team: String, id: UInt64, online: Bool = true, pages: Int = 0,
        trust: FixTrust.Level? = .hardware
    ) -> HuntEnvelope {
        signed(
            HuntEnvelope(
                hunt: huntID, sender: team, id: id, sent: CoreFixture.t0,
                status: TeamStatus(online: online, pagesOpen: pages, trust: trust, fixMode: 3)))
    }

    static func releaseEnvelope(_ name: String, id: UInt64, key releaseKey: ReleaseKey = releaseKey(0x20))
        -> HuntEnvelope
    {
        signed(
            HuntEnvelope(hunt: huntID, id: id, sent: CoreFixture.t0, release: HuntRelease(name: name, key: releaseKey)))
    }
}

/// Each kind's body as an optional, for tests that change one field of a body in place (`envelope.status?.reader =`).
extension HuntEnvelope {
    var receipt: UnlockReceipt? {
        get { if case let .receipt(receipt, _) = body { receipt } else { nil } }
        set {
            guard let newValue, case let .receipt(_, claim) = body else { return }
            body = .receipt(newValue, readerClaim: claim)
        }
    }

    var status: TeamStatus? {
        get { if case let .status(status) = body { status } else { nil } }
        set { if let newValue { body = .status(newValue) } }
    }

    var hintRequest: HuntHintRequest? {
        get { if case let .hintRequest(request) = body { request } else { nil } }
        set { if let newValue { body = .hintRequest(newValue) } }
    }

    var hint: HuntHint? {
        get { if case let .hint(hint) = body { hint } else { nil } }
        set { if let newValue { body = .hint(newValue) } }
    }

    var adjust: HuntAdjustment? {
        get { if case let .adjust(adjust) = body { adjust } else { nil } }
        set { if let newValue { body = .adjust(newValue) } }
    }
}
