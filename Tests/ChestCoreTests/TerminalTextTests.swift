import Testing
@testable import ChestCore

@Suite struct TerminalTextTests {
    @Test func escapesTerminalSequencesAndLineBreaks() {
        let hostile = "Hi\u{1B}[2J\u{1B}]0;pwned\u{07}\u{1B}]8;;http://x\u{1B}\\link\nchestd: forged\r\u{9B}31m\u{7F}"
        #expect(TerminalText.escaped(hostile)
                == #"Hi\e[2J\e]0;pwned\u{7}\e]8;;http://x\e\link\nchestd: forged\r\u{9b}31m\u{7f}"#)
    }

    @Test func keepsNewlinesWhenAsked() {
        #expect(TerminalText.escaped("one\ntwo\u{1B}c", keepingNewlines: true) == "one\ntwo\\ec")
    }

    @Test func leavesOrdinaryTextAlone() {
        let text = "Chasse au trésor 🗝️ — «ouvert»\u{301}"
        #expect(TerminalText.escaped(text) == text)
    }
}
