import ChestCore

extension ComposeCommand {
    static let discussion = """
        Writes a sealed message file with 1 to \(Message.maximumPages) pages and prints its ID (on standard error when \
        -o - sends the message itself to standard output). After each --page, every --lock adds a lock to set A; --or \
        switches to set B of the same page. A page opens when every lock of A holds, or every lock of B; a page \
        without locks is open from the start. At most one lock of each type per set. A page's text (at most \
        \(Message.maximumPageLength) characters) can come from a file (--page @story.txt) or standard input \
        (--page -). --from defaults to the name setting, else "\(Message.defaultSender)". An existing FILE is kept \
        unless --force.

        lock specs:
        \(LockSpec.forms.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))

        example:
          chest compose -o oak.locked --title "Birthday" \\
            --page "Under the old oak." --lock location=here/30m --or --lock pin=4821 \\
            --page "Happy birthday!" --lock time=2026-12-01T09:00:00Z

        Formats: files are format 3, each page's text, files and hidden places encrypted. A set with a PIN, an \
        answer, a sealed place or a release holds the page's key only under a key made from them (Argon2id); a set \
        with only time, weather, temperature or altitude locks is a spoiler guard, its key in the file. A message \
        with a PIN or an answer is written as format 5 (their keys in two lanes, a place sealed with a PIN on cells \
        a third as wide), one composed for a hunt with a start as format 6; readers older than that refuse it with \
        "update chest". --format 2 writes the previous format, whose places can be recovered from the file, \
        --format 1 the oldest (text in the clear); every reader opens them all.

        What a sealed place gives away: the file says only its search area, a disk the place lies in. Declare it \
        with --search-area LAT,LON/RADIUSkm (the park, the old town: what a player could guess anyway); without it, \
        compose draws a disk \(Int(SearchArea.defaultRadius * 2 / 1000)) km across at random around each place, \
        afresh for every place. A place alone is a small secret (a 30 m place in a declared 1 km² park falls to \
        minutes of one core); a PIN in the same set is what makes a page hard to open without going there. Places \
        on one grid fall to one search, and compose says which pages share one.

        Costs: each guess costs Argon2id, priced per secret. A PIN or an answer takes two runs of 6 passes over \
        512 MiB side by side (about 2.4 s on an idle 2-core machine, 4.4 s of core time: trying all 10,000 four-digit \
        PINs costs whoever copies the file about 12 core-hours); a place alone 4 passes over 512 MiB (about 1.5 s). \
        Sealing takes seconds a page (a place with a PIN about 30 s on two cores). --seal-cost sets one level (one \
        run) for every set instead. Per page, compose prints on standard error how the page is protected, priced by \
        the best attack ("sealed by location and PIN: about 227 core-days …", "guarded only: …"), and which pages \
        share one search (docs/SECURITY.md "What a place is worth").

        --attach FILE adds a file to the page before it: a picture (PNG, JPEG or WebP, known by its first bytes, not \
        its name) or any other file. Its name, type, size and bytes are sealed with the page's text, so the message \
        file tells nothing of them before the page opens but their total size, to within about 6 %. At most 8 MiB \
        of files a message, all pages together. Sealed formats only (2 and later; format 1 keeps pages in the clear).

        --question TEXT gives the page before it a question, in the clear, shown by read, nav and watch before the \
        page opens; an answer= lock takes up to \(SealedPage.answerSlots) answers, none of them in the file, and \
        the reader answers with chest answer. An answer is worth what the question gives away: pair it with a \
        sealed place in the same set (one key of both) when the page must stay secret. --points N (0 to 1000, \
        default 1) is what a hunt's board credits for the page's proven opening:
          --page "Under the astronomical clock, ask for Kaspar." \\
            --question "What is the name of Bern's clock tower?" \\
            --lock "answer=Zytglogge|Zeitglockenturm" \\
            --lock location=46.94797,7.44745/80m --points 5

        --hint TEXT adds a hint to the page before it (up to \(Page.maximumHints), in order), each sealed under a \
        key of its own. --hint-after DURATION (90s, 10m, 1h30m, 2d) makes the hint before it open by itself that \
        long after its page became the reader's next goal; without it the reader asks for it (chest hint ID). \
        Outside a hunt the hint's key is in the file, so whoever has the file can read it at once. In a hunt \
        (--hunt), every hint's key stays with the organiser: the board gives it when asked, for --hint-cost \
        POINTS, or free once its delay has run.

        --hunt FILE keeps in the organiser's hunt file each page's key (for the board's proofs of opening), the \
        keys of release= locks and hints, the points and the questions (docs/HUNTS.md).

        --quest QUEST -o DIR builds every message of a quest file (docs/QUEST.md; a geocaching GPX works as it is), \
        one NAME.locked each in DIR, and records their IDs in QUEST.ids; --keep-ids reuses them, so a rebuilt quest \
        replaces the messages readers have. Every mistake of the quest is reported in one run (up to 20), each as \
        FILE:LINE: FIELD: what is wrong and what to do, and nothing is written while there is one. When sealing \
        every page will take more than \(Int(SealingEstimate.askAbove / 60)) minutes (a course of hundreds of \
        caches), it says how long first and asks on a terminal; without one it writes nothing unless --yes.
        """
}
