import ChestArguments
import ChestCore
import ChestIO

/// `chest` itself: the global options before the command, and the commands.
struct Chest: ParsableCommand {
    static let name = "chest"
    static let abstract = "Locked messages that open in the real world."
    static let discussion = """
        An ID is printed by compose and import; any unique prefix of it works. The commands that read or change \
        the chest (import, list, read, pin, watch, status, …) talk to the running chestd, and say how to start it \
        when it is not running. Options take their value as \
        --opt VALUE or --opt=VALUE, and -- ends them.

        Every -o FILE is written as a shell's > would: - is standard output; a FIFO, a device or a terminal is \
        written through in place; a symlink to a file replaces the file it points to; a regular file is replaced \
        atomically, so a crash leaves the old file or the new one, never half of one. An existing file, or the \
        file a dangling symlink points to, is written only with --force where the command has it. A symlink in a \
        sticky folder others can write to (/tmp) is followed only when it is yours or the folder owner's, \
        whatever fs.protected_symlinks says, and nothing on the path may turn into a link while chest writes.

        `chest help COMMAND` tells more; man chest has every command. Exit status: 0 success, 1 failure (one \
        chest: line on standard error says what went wrong and what to do), 64 usage error.
        """
    static let parameters: [Parameter] = [
        .option(
            "--socket", value: "PATH",
            help:
                "chestd's control socket (default $CHEST_SOCKET, the socket setting, else $XDG_RUNTIME_DIR/chestd.sock)",
            completion: .files()),
        .option(
            "--chest", value: "DIR",
            help: "the chest directory (default $CHEST_DIR, the chest setting, else $XDG_DATA_HOME/chest)",
            completion: .directories),
        .option(
            "--config", value: "FILE", help: "the settings file (default $XDG_CONFIG_HOME/chest/config.json)",
            completion: .files()),
        .flag("--version", help: "show the version", inUsage: false),
        .option(
            "--generate-completion-script", value: "SHELL", help: "print a completion script for bash, zsh or fish",
            hidden: true, completion: .words(CompletionScript.Shell.allCases.map(\.rawValue))),
        .flag(
            "--generate-man-page", help: "print the OPTIONS and COMMANDS sections of chest(1) in roff (make man)",
            hidden: true),
    ]
    static var subcommands: [any ParsableCommand.Type] {
        [
            ComposeCommand.self, ImportCommand.self, ListCommand.self, ReadCommand.self, PinCommand.self,
            AnswerCommand.self, HintCommand.self, SaveCommand.self,
            UnsaveCommand.self, DeleteCommand.self, UndeleteCommand.self, StatusCommand.self, WatchCommand.self,
            ReceiptCommand.self, VerifyCommand.self, SendersCommand.self, HuntCommand.self, BoardCommand.self,
            ConfigCommand.self,
            QuestCommand.self, PreviewCommand.self, SimulateCommand.self, DemoCommand.self, NavCommand.self,
            MapCommand.self,
            ExportCommand.self, HelpCommand.self,
        ]
    }

    /// The IDs of both chests from the running chestd, one a line, for completion; nothing when it is not running.
    static let listIDs =
        #"for saved in '' --saved; do chest list $saved --json; done 2>/dev/null | sed -n 's/^ *"id" *: *"\([^"]*\)".*/\1/p'"#

    var flags: [SettingKey: String] = [:]
    var configPath: String?
    var version: Bool
    var completionShell: CompletionScript.Shell?
    var manPage: Bool

    init(_ values: ParsedValues) throws(UsageError) {
        for key in [SettingKey.socket, .chest] { flags[key] = values.value("--" + key.rawValue) }
        configPath = values.value("--config")
        version = values.flag("--version")
        manPage = values.flag("--generate-man-page")
        completionShell = try values.value(
            "--generate-completion-script", "--generate-completion-script wants bash, zsh or fish"
        ) {
            CompletionScript.Shell(rawValue: $0)
        }
    }

    /// What `chest` does without a command: the version, a completion script, the man page's reference, or the help.
    func run() {
        if version {
            print("chest \(ChestVersion.described)")
        } else if let completionShell {
            print(CompletionScript.script(for: Self.self, shell: completionShell), terminator: "")
        } else if manPage {
            print(ManPage.reference(for: Self.self), terminator: "")
        } else {
            print(HelpText.help(for: Self.self, path: [Self.name]))
        }
    }
}
