import ChestIO
import FoundationEssentials
import Glibc

/// `OutputFile` as the commands use it: failures said as sentences for the user (`ChestError`).
extension OutputFile {
    /// Resolves `-o NAME`; a regular file already there, or one a dangling link would create, is written only with
    /// `--force` (`force`), while standard output, a FIFO or a device is simply written to. A link planted by
    /// another user in a shared sticky folder is refused whatever `force` says (`OutputFile.Refusal`).
    init(checking name: String, force: Bool = true, otherwise: String = "choose another name") throws(ChestError) {
        do {
            try self.init(name)
        } catch {
            throw ChestError("cannot write \(name): \(error)")
        }
        if !force, replacesExistingFile {
            throw ChestError("\(name) exists; \(otherwise), or overwrite it with --force")
        }
        if !force, let target = danglingLinkTarget {
            throw ChestError(
                "\(name) is a symlink to \(target), where no file is yet; \(otherwise), or write there with --force")
        }
    }

    /// Whether `name` is (or will be) a regular file, whose name should then say its format: standard output, a
    /// FIFO or a device takes the default format whatever its name (`-o /dev/stdout`).
    static func namesRegularFile(_ name: String) -> Bool {
        name != "-" && ((try? OutputFile(name))?.target.isRegularFile ?? true)
    }

    /// Writes `data`, or says why it could not.
    func write(checked data: Data) throws(ChestError) {
        do {
            try write(data)
        } catch {
            throw ChestError("cannot write \(name): \(error.errno)")
        }
    }
}
