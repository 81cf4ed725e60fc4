import ChestArguments
import ChestCore
import ChestIO
import ChestSeal
import Foundation

/// `chest compose`: resolves `here` and PINs, seals the message with the user's identity, writes the file.
struct Composer {
    let settings: Settings

    func compose(_ draft: ComposeDraft) throws {
        let needsFix = draft.pages.contains { page in
            (page.setA + page.setB).contains { if case .locationHere = $0 { true } else if case .altitudeHere = $0 { true } else { false } }
        }
        let fix = needsFix ? try currentFix() : nil
        var pages: [Page] = []
        for (index, draftPage) in draft.pages.enumerated() {
            pages.append(Page(text: draftPage.text, setA: try resolve(draftPage.setA, fix, page: index + 1),
                              setB: try resolve(draftPage.setB, fix, page: index + 1)))
        }
        let identity = try Identity.loadOrCreate(at: settings.identityPath)
        let unsealed = Message(id: MessageID(bytes: Sealer.randomBytes(16)), title: draft.title ?? "",
                               from: draft.from ?? settings.senderName, created: Date(), pages: pages,
                               seal: nil, requiresHardware: draft.requiresHardware)
        do {
            try MessageFile.validate(unsealed)
        } catch {
            throw UsageError(error.description)
        }
        let message = Sealer.seal(unsealed, with: identity)
        let data = MessageFile.encode(message)
        guard data.count <= MessageFile.sizeLimit else {
            throw ChestError(MessageFormatError.tooLarge(size: data.count, limit: MessageFile.sizeLimit).description)
        }
        let output = draft.output ?? ""
        do {
            try AtomicFile.write(data, to: output.hasPrefix("/") ? output : FileManager.default.currentDirectoryPath + "/" + output)
        } catch {
            throw ChestError("cannot write \(output): \(error.errno)")
        }
        print(message.id)
    }

    private func resolve(_ specs: [LockSpec], _ fix: Fix?, page: Int) throws -> [Lock] {
        try specs.map { spec in
            switch spec {
            case let .lock(lock): return lock
            case let .pin(digits): return .pin(hash: Sealer.hashPIN(digits))
            case let .locationHere(radius):
                guard let position = fix?.position else { throw ChestError("no GPS fix available for location=here") }
                return .location(center: position, radius: radius)
            case let .altitudeHere(margin):
                guard let altitude = fix?.altitude3D else {
                    throw ChestError("altitude=here needs a 3D fix with an altitude; chestd's fix has none yet (see chest status)")
                }
                return .altitude(Bounds(min: altitude - margin, max: altitude + margin))
            }
        }
    }

    /// chestd's current qualified fix.
    private func currentFix() throws -> Fix {
        do {
            return try ControlClient(socketPath: settings.socketPath).call(ControlRequest(op: .fix), expecting: Fix.self)
        } catch {
            throw ChestError("\"here\" needs chestd's current fix: \(error)")
        }
    }
}
