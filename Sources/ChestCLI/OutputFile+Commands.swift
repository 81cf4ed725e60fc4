import ChestIO
import FoundationEssentials
import Glibc

/// `OutputFile` as the commands use it: failures said as sentences for the user (`ChestError`).
extension OutputFile {
    /// Resolves `-o NAME`; a regular file already there is replaced only with `--force` (`force`), while standard
    /// output, a FIFO or a device is simply written to.
    init(checking name: String, force: Bool = true, otherwise: String = "choose another name") throws(ChestError) {
        do {
            try self.init(name)
        } catch {
            throw ChestError("cannot write \(name): \(error.errno)")
        }
        if !force, replacesExistingFile {
            throw ChestError("\(name) exists; \(otherwise), or overwrite it with --force")
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
