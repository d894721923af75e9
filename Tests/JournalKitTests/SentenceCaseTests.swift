import JournalKit
import TestSupport
import Testing

@Suite(.onTestThreads) struct SentenceCaseTests {
    @Test func theFirstLetterIsUpperCaseAndTheRestAsItWas() {
        #expect("received 1 change from 1 device".sentenceCased == "Received 1 change from 1 device")
        #expect("élan, iPhone".sentenceCased == "Élan, iPhone")
        #expect("".sentenceCased == "")
        #expect("x".sentenceCased == "X")
        // A substring, as the report's phrases are sliced.
        #expect("the log of device a1".dropFirst(4).sentenceCased == "Log of device a1")
    }
}
