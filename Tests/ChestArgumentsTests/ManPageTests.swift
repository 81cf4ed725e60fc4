import Testing

@testable import ChestArguments

/// The man page's reference as roff: the same declarations as the help, in words roff takes literally.
struct ManPageTests {
    struct Sample: ParsableCommand {
        static let name = "sample"
        static let abstract = "do a sample thing"
        static let discussion = """
            Reads FILE with --page N; `sample help` says more.
            .hidden lines start with a dot.

            example:
              sample --page 2 \\
                a.txt

            forms:
              a=B   the first form, at 5 °C
            """
        static let parameters: [Parameter] = [
            .positional("FILE", help: "a file"),
            .option("--page", "-p", value: "N", help: "the page (default 1)"),
            .flag("--secret", help: "not shown", hidden: true),
        ]
        init(_ values: ParsedValues) throws(UsageError) {}
    }

    struct Program: ParsableCommand {
        static let name = "prog"
        static let abstract = "a program"
        static let parameters: [Parameter] = [.flag("--version", help: "show the version", inUsage: false)]
        static var subcommands: [any ParsableCommand.Type] { [Sample.self] }
        init(_ values: ParsedValues) throws(UsageError) {}
    }

    @Test func eachCommandIsASectionWithItsUsageWhatItDoesAndItsOptions() {
        let roff = ManPage.reference(for: Program.self)
        let lines = roff.split(separator: "\n").map(String.init)
        #expect(lines.first == ManPage.beginMarker && lines.last == ManPage.endMarker)
        #expect(
            lines.contains(".SH OPTIONS") && lines.contains(".SH COMMANDS") && lines.contains(#".SS "prog sample""#))
        #expect(lines.contains(#"\fBprog\fR \fBsample\fR \fIFILE\fR [\fB\-p\fR \fIN\fR]"#), "\(roff)")
        #expect(lines.contains("Do a sample thing."))
        #expect(lines.contains(#"Reads FILE with \fB\-\-page\fR N; \fBsample help\fR says more."#))
        #expect(lines.contains(#"\&.hidden lines start with a dot."#))
        #expect(
            lines.contains(#"sample \-\-page 2 \e"#) && lines.contains("  a.txt"),
            "an example keeps its own indentation")
        #expect(lines.contains(#"\fBa=B\fR"#) && lines.contains(#"the first form, at 5 \[u00B0]C"#))
        #expect(lines.contains(#"\fB\-p\fR, \fB\-\-page\fR \fIN\fR"#) && lines.contains("The page (default 1)."))
        #expect(!roff.contains("secret") && roff.contains(#"\fB\-h\fR, \fB\-\-help\fR"#))
    }
}
