import ChestCore

/// All of `chest`'s help text, in one place.
enum Usage {
    static let summary = """
        usage: chest [--socket PATH] [--chest DIR] [--config FILE] COMMAND [ARGS]

        Locked messages that open in the real world.

        commands:
          compose -o FILE --title T [--from NAME] PAGES…   write a locked message file; prints its ID
          import FILE…                                     add message files to the chest
          list [--saved] [--json]                          the messages and their state
          read ID [--json]                                 open pages, and why the others are still locked
          pin ID PIN [--page N]                            try a PIN on a message's PIN locks
          save ID                                          move a message to the saved chest (at most 50)
          delete ID                                        remove a message for good
          status [--json] [--watch]                        gpsd, the fix, the clock, the weather, counts
          watch [--json] [--count N] [--timeout S]         stream events as they happen
          config [KEY [VALUE]] | config --unset KEY        show or change settings

        An ID is printed by compose and import; any unique prefix of it works.
        `chest help COMMAND` tells more. Exit status: 0 success, 1 failure, 64 usage error.
        """

    static func help(for command: String?) -> String {
        switch command {
        case "compose": """
            usage: chest compose -o FILE --title TITLE [--from NAME] --page TEXT [--lock SPEC…] [--or --lock SPEC…] …

            Writes a sealed message file with 1 to 5 pages. After each --page, every --lock adds a lock to
            set A; --or switches to set B of the same page. A page opens when every lock of A holds, or every
            lock of B. A page without locks is open from the start. Prints the message ID.

            lock specs:
            \(LockSpec.forms.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))

            example:
              chest compose -o oak.locked --title "Birthday" \\
                --page "Under the old oak." --lock location=here/30m --or --lock pin=4821 \\
                --page "Happy birthday!" --lock time=2026-12-01T09:00:00Z
            """
        case "import": "usage: chest import FILE…\n\nValidates each file and adds it to the chest; prints each ID, or why it was refused."
        case "list": "usage: chest list [--saved] [--json]\n\nThe messages of the regular chest (or the saved one) with their state: locked, partial or open."
        case "read": "usage: chest read ID [--json]\n\nThe text of the open pages; for each locked page, every lock and what it still waits for."
        case "pin": "usage: chest pin ID PIN [--page N]\n\nTries a 4-digit PIN on the message's PIN locks (or one page's). After 5 wrong PINs, attempts wait 30 s, 1 min, 5 min, 15 min, then 1 h."
        case "save": "usage: chest save ID\n\nMoves a message to the saved chest, which holds at most \(ChestKind.savedLimit)."
        case "delete": "usage: chest delete ID\n\nRemoves a message and its state for good."
        case "status": "usage: chest status [--json] [--watch]\n\nThe gpsd connection, the fix, the clock, the weather cache and the message counts. --watch refreshes once a second."
        case "watch": "usage: chest watch [--json] [--count N] [--timeout S]\n\nPrints events as they happen (unlocked, ingested, rejected, gpsd, fix, weather…); stops after N events or S seconds."
        case "config":
            "usage: chest config [KEY [VALUE]] | chest config --unset KEY\n\nsettings:\n"
                + Settings.known.map { "  \($0.key.padding(toLength: 22, withPad: " ", startingAt: 0)) \($0.help)" }.joined(separator: "\n")
        default: summary
        }
    }
}

import ChestIO
