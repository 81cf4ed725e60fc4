import Testing

@testable import ChestArguments

struct TextWrapTests {
    @Test func linesBreakAtSpacesAndCutOnlyAWordLongerThanALine() {
        #expect(TextWrap.lines("one two three four", columns: 9) == ["one two", "three", "four"])
        #expect(TextWrap.lines("one two three", columns: 10, indent: "  ") == ["  one two", "  three"])
        #expect(TextWrap.lines("abcdefghijkl xy", columns: 8) == ["abcdefgh", "ijkl xy"])
        #expect(TextWrap.lines("a\n\nb", columns: 20) == ["a", "", "b"], "each line on its own, blank lines kept")
    }

    @Test func aHangingLineKeepsItsLabelAndIndentsWhatFollowsUnderItsText() {
        let row = "  --page N   answer only this page's question when it has one"
        let lines = TextWrap.hanging(row, at: 13, columns: 40)
        #expect(
            lines == [
                "  --page N   answer only this page's",
                "             question when it has one",
            ])
        #expect(TextWrap.hanging("  -v   short", at: 7, columns: 40) == ["  -v   short"])
    }

    @Test func aUsageLineBreaksBetweenItsWordsNeverInsideBrackets() {
        let line = "usage: tool make NAME [--lock SPEC]... [--or --lock SPEC...] [--count N]"
        let lines = HelpText.usageWrapped(line, at: 17, columns: 40)
        #expect(
            lines == [
                "usage: tool make NAME [--lock SPEC]...",
                "                 [--or --lock SPEC...]",
                "                 [--count N]",
            ])
        #expect(lines.allSatisfy { $0.count <= 40 })
        // `...` goes with what it repeats.
        #expect(
            HelpText.usageWrapped("usage: tool make --page TEXT [--lock SPEC]... ...", at: 17, columns: 44)
                == ["usage: tool make --page TEXT", "                 [--lock SPEC]... ..."])
    }

    @Test func helpWrapsProseAndKeepsIndentedLinesAsWritten() {
        let help = HelpText.help(for: Wrapped.self, path: ["tool", "wrapped"], columns: 40)
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines.contains("  tool wrapped --a-rather-long-option-name --and-another"), "an example line is kept whole")
        #expect(lines.filter { !$0.hasPrefix("  tool wrapped") }.allSatisfy { $0.count <= 40 }, "\(help)")
        #expect(lines.contains("  --count N    how many of them to make,"))
        #expect(lines.contains("               counted from one"))
        #expect(lines.contains("  LIST   the things it made, one a line,"))
        #expect(lines.contains("         with their numbers"))
        // Wrapping moves words and loses none.
        let wide = HelpText.help(for: Wrapped.self, path: ["tool", "wrapped"], columns: 1000)
        #expect(help.split(whereSeparator: \.isWhitespace) == wide.split(whereSeparator: \.isWhitespace))
    }
}

private struct Wrapped: ParsableCommand {
    static let name = "wrapped"
    static let abstract = "a command whose help is longer than a narrow terminal is wide"
    static let parameters: [Parameter] = [
        .option("--count", value: "N", help: "how many of them to make, counted from one")
    ]
    static let discussion = """
        Makes things, as many as asked, and says so in a paragraph that takes more than one line of forty columns.
        example:
          tool wrapped --a-rather-long-option-name --and-another
        prints:
          LIST   the things it made, one a line, with their numbers
        """
    init(_ values: ParsedValues) throws(UsageError) {}
}
