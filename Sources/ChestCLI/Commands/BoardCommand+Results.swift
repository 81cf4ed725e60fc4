import ChestIO
import ChestWeb
import FoundationEssentials

extension BoardCommand {
    /// Gathers what the broker holds, as --once does, then prints the results or writes them to `output`. When
    /// the broker cannot be reached, the results are made from what the board received before, and it says so.
    func writeResults(_ loop: inout BoardLoop) throws {
        let (note, _) = loop.gather(timeout: timeout)
        let results = BoardResults(loop.snapshot())
        guard let output else {
            print(results.text + note.trimmingNewlines())
            return
        }
        let data: Data =
            switch output.lowercased().suffix(4) {
            case "json": results.json
            case ".csv": Data(results.csv.utf8)
            default: Data(results.html(timeZone: .current).utf8)
            }
        try OutputFile(checking: output).write(checked: data)
        printError(
            "chest: wrote the results of \(results.teams.count) teams to \(output)" + note.replacing("\n", with: " "))
    }
}
