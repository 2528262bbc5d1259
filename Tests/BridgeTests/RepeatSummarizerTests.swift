import Bridge
import Testing

@Suite("Repeated warnings are summarised per kind and source")
struct RepeatSummarizerTests {
    let start = ContinuousClock.now
    let key = RepeatSummarizer.Key(kind: "refused commands", source: "living_room/floor_lamp")

    @Test("the first few pass, the rest are counted and summarised once the window ends")
    func burstThenSummary() {
        var summarizer = RepeatSummarizer(window: .seconds(10), burst: 3)
        let passed = (0..<4315).map { summarizer.admit(key, at: start + .milliseconds($0)) }
        #expect(passed.reduce(0, +) == 3)
        #expect(summarizer.due(at: start + .seconds(9)).isEmpty)
        #expect(summarizer.nextDue == start + .seconds(10))
        #expect(summarizer.due(at: start + .seconds(10)) == [.init(key: key, suppressed: 4312, window: .seconds(10))])
        #expect(summarizer.nextDue == nil)
        #expect(summarizer.admit(key, at: start + .seconds(11)) == 1, "a new window lets lines through again")
    }

    @Test("a batch is one line with its count; each source has its own window")
    func batchesAndSources() {
        var summarizer = RepeatSummarizer(window: .seconds(10), burst: 2)
        let other = RepeatSummarizer.Key(kind: "refused commands", source: "kitchen")
        #expect(summarizer.admit(key, count: 25, at: start) == 25)
        #expect(summarizer.admit(key, count: 5, at: start) == 5)
        #expect(summarizer.admit(key, count: 7, at: start) == 0)
        #expect(summarizer.admit(other, count: 2, at: start + .seconds(1)) == 2)
        #expect(summarizer.due(at: start + .seconds(12)) == [.init(key: key, suppressed: 7, window: .seconds(10))])
    }

    @Test("a window that ends while new occurrences arrive is still summarised")
    func rollover() {
        var summarizer = RepeatSummarizer(window: .seconds(10), burst: 1)
        for _ in 0..<5 { _ = summarizer.admit(key, at: start) }
        #expect(summarizer.admit(key, at: start + .seconds(10)) == 1)
        #expect(summarizer.due(at: start + .seconds(10)) == [.init(key: key, suppressed: 4, window: .seconds(10))])
    }

    @Test("past the tracked sources, new ones share one key so memory stays bounded")
    func boundedSources() {
        var summarizer = RepeatSummarizer(window: .seconds(10), burst: 1, maxKeys: 3)
        for index in 0..<1000 { _ = summarizer.admit(.init(kind: "refused commands", source: "random_\(index)"), at: start) }
        let summaries = summarizer.due(at: start + .seconds(10))
        #expect(summaries == [.init(key: .init(kind: "refused commands", source: RepeatSummarizer.otherSources), suppressed: 996, window: .seconds(10))])
    }
}
