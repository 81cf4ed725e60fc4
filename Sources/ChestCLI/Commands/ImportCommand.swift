import ChestArguments
import ChestCore
import ChestIO
import FoundationEssentials
import Glibc

/// `chest import FILE...`
struct ImportCommand: ChestCommand {
    static let name = "import"
    static let abstract = "add message files to the chest"
    static let discussion = """
        Validates each file (format, size, seal) and adds it to the chest; prints each ID, or why the file was \
        refused (no such file, not a chest message, already in a chest, damaged, too large, an unknown version). \
        Copying a *.locked file into the chest directory does the same. A message you sealed yourself is taken in \
        and stays shut for you.

        A newer version of a message already in the chest (the same ID, sealed by the same sender's key, composed \
        later, as a quest rebuilt with compose --quest --keep-ids makes) replaces it in whichever chest it is in, \
        and import says what happened: a page whose locks did not change stays open (a sealed page keeps the text \
        it opened with) and its latched locks stay latched, a page whose locks changed is locked again, and PIN \
        attempts are kept. The same file again or an older version is refused (docs/QUEST.md "Rebuilding a quest").

        A message is its sender's key and its ID: another sender's message with an ID the chest holds is taken in \
        under a chest ID of its own, which import prints and says so; list and read flag both. In a joined hunt, a \
        message with one of the hunt's IDs that the hunt's organiser did not seal is refused as a copy re-signed by \
        another key, and one that came before the organiser's is set aside in rejected/ when the organiser's comes.
        """
    static let parameters: [Parameter] = [
        .positional("FILE", arity: .oneOrMore, help: "a message file", completion: .files(extension: "locked"))
    ]

    var files: [String]

    init(_ values: ParsedValues) throws(UsageError) {
        files = values.positional("FILE")
    }

    /// Imports each file in turn; refusals are reported and make the exit status 1, the rest still go in.
    func run(settings: Settings) throws {
        var failures = 0
        let directory = FileManager.default.currentDirectoryPath
        for file in files {
            // chestd reads the file as it reads its inbox, refusing symlinks: the one named here is the user's own
            // choice, so it is resolved before chestd sees it.
            let path = Self.resolved(file.hasPrefix("/") ? file : directory + "/" + file)
            if let problem = Self.plainlyNotAMessage(path) {
                failures += 1
                printError("chest: \(file): \(problem)")
                continue
            }
            do {
                let result = try CLI.client(settings).call(
                    ControlRequest.import(path: path), expecting: ImportResult.self)
                print(result.id)
                if let replaced = result.replaced { printError("chest: \(file): \(replaced)") }
                if let note = result.note { printError("chest: \(file): \(note)") }
            } catch ControlClientError.notRunning(let socket) {
                throw ControlClientError.notRunning(socket: socket)
            } catch {
                failures += 1
                printError("chest: \(file): \(error)")
            }
        }
        // One file refused has said why already; the exit status is enough.
        if failures > 0 { throw ImportFailures(count: failures, of: files.count) }
    }

    /// What a person should hear about a file that is plainly not a message, before chestd's detailed checks:
    /// a missing file, or one whose first byte cannot start a message file (docs/FORMAT.md).
    static func plainlyNotAMessage(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return errno == ENOENT ? "no such file" : nil }
        // Anything but a regular file of a message's size is for chestd to refuse with its reason; opening a FIFO
        // here would block.
        guard (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= MessageFile.fileLimit,
            let handle = try? FileDescriptor.open(path, O_RDONLY)
        else { return nil }
        defer { handle.close() }
        var start: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while start.count < 4096, let count = try? handle.read(into: &buffer), count > 0 {
            start += buffer[..<min(count, 4096 - start.count)]
        }
        guard let first = start.first(where: { ![0x20, 0x09, 0x0a, 0x0d].contains($0) }) else {
            return start.isEmpty ? "an empty file, not a chest message" : "not a chest message (blank)"
        }
        return first == UInt8(ascii: "{") ? nil : "not a chest message (a message file is what `chest compose` writes)"
    }

    /// The path with every symbolic link resolved, or as it is when it cannot be (a missing file says so later).
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }
}

/// Some files of an `import` were refused; each already said why on stderr.
struct ImportFailures: Error, CustomStringConvertible {
    var count: Int
    var of: Int

    var description: String { "\(count) of \(of) files refused" }
}
