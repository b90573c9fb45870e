@testable import AtomsJournalReader

// The timing-line writers of formats 4.1 (`TimingLine`) and 4.2 (`CompactTimingLine`). The
// recorder writes 4.3's packed lines only; readers still read the earlier two, and these
// writers make the lines the tests read back (and check the format's examples against).

extension TimingLine {
    /// Appends the line, with its newline.
    func append(to output: inout [UInt8]) {
        output.append(contentsOf: #"{"type":"timing","seq":"#.utf8)
        output.appendDecimal(seq)
        for (name, value) in [("start", start), ("runtime", runtime), ("observers", observers), ("effects", effects), ("subscribers", subscribers)] {
            output.append(contentsOf: #",""#.utf8)
            output.append(contentsOf: name.utf8)
            output.append(contentsOf: #"":"#.utf8)
            output.appendDecimal(value)
        }
        Self.appendList("evals", evaluations, to: &output) { evaluation, output in
            output.appendNumbers([evaluation.atom, evaluation.start, evaluation.duration, evaluation.depth])
        }
        Self.appendList("effectRuns", effectRuns, to: &output) { run, output in
            output.appendNumbers([run.atom, run.start, run.duration])
        }
        Self.appendList("subscriberRuns", subscriberRuns, to: &output) { run, output in
            output.append(UInt8(ascii: "["))
            output.append(contentsOf: JSONLine.quoted(run.at).utf8)
            output.append(UInt8(ascii: ","))
            output.appendDecimal(run.start)
            output.append(UInt8(ascii: ","))
            output.appendDecimal(run.duration)
            output.append(UInt8(ascii: "]"))
        }
        Self.appendList("notified", notified, to: &output) { notified, output in
            output.appendNumbers([notified.atom, notified.count])
        }
        Self.appendList("tasks", tasks, to: &output) { task, output in
            output.append(UInt8(ascii: "["))
            for number in [task.atom, task.start, task.end] {
                output.appendDecimal(number)
                output.append(UInt8(ascii: ","))
            }
            output.append(contentsOf: (task.committed ? #""result"]"# : #""dropped"]"#).utf8)
        }
        output.append(contentsOf: [UInt8(ascii: "}"), 0x0A])
    }

    private static func appendList<Element>(_ name: String, _ elements: [Element], to output: inout [UInt8], _ appendElement: (Element, inout [UInt8]) -> Void) {
        guard !elements.isEmpty else { return }
        output.append(contentsOf: #",""#.utf8)
        output.append(contentsOf: name.utf8)
        output.append(contentsOf: #"":["#.utf8)
        for (index, element) in elements.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            appendElement(element, &output)
        }
        output.append(UInt8(ascii: "]"))
    }
}

extension CompactTimingLine {
    /// Appends the line, with its newline.
    func append(to output: inout [UInt8]) {
        output.append(contentsOf: Self.prefix)
        if !locations.isEmpty {
            output.append(contentsOf: #","l":["#.utf8)
            for (index, location) in locations.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                output.appendDecimal(location.number)
                output.append(UInt8(ascii: ","))
                output.appendJSONString(location.at)
            }
            output.append(UInt8(ascii: "]"))
        }
        if back != 0 {
            output.append(contentsOf: #","d":"#.utf8)
            output.appendDecimal(back)
        }
        if runtime != 0 || observers != 0 {
            output.append(contentsOf: #","p":["#.utf8)
            output.appendDecimal(runtime)
            output.append(UInt8(ascii: ","))
            output.appendDecimal(observers)
            output.append(UInt8(ascii: "]"))
        }
        Self.appendNumbers("v", count: evaluations.count, to: &output) { index, output in
            let evaluation = evaluations[index]
            output.appendNumbers(evaluation.atom, evaluation.start, evaluation.duration, evaluation.depth)
        }
        Self.appendNumbers("e", count: effects.count, to: &output) { index, output in
            output.appendNumbers(effects[index].subject, effects[index].value)
        }
        Self.appendNumbers("s", count: subscribers.count, to: &output) { index, output in
            output.appendNumbers(subscribers[index].subject, subscribers[index].value)
        }
        if let notified {
            output.append(contentsOf: #","n":["#.utf8)
            for (index, run) in notified.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                output.appendNumbers(run.subject, run.value)
            }
            output.append(UInt8(ascii: "]"))
        }
        Self.appendNumbers("k", count: tasks.count, to: &output) { index, output in
            let task = tasks[index]
            output.appendNumbers(task.atom, task.start, task.end, task.committed ? 1 : 0)
        }
        output.append(contentsOf: [UInt8(ascii: "}"), 0x0A])
    }

    /// Appends `,"name":[…]` with `count` groups of numbers, unless `count` is 0.
    private static func appendNumbers(_ name: StaticString, count: Int, to output: inout [UInt8], _ group: (Int, inout [UInt8]) -> Void) {
        guard count > 0 else { return }
        output.append(contentsOf: #",""#.utf8)
        output.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        output.append(contentsOf: #"":["#.utf8)
        for index in 0..<count {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            group(index, &output)
        }
        output.append(UInt8(ascii: "]"))
    }
}

extension [UInt8] {
    /// Appends `[a,b,…]`.
    fileprivate mutating func appendNumbers(_ numbers: [Int]) {
        append(UInt8(ascii: "["))
        for (index, number) in numbers.enumerated() {
            if index > 0 { append(UInt8(ascii: ",")) }
            appendDecimal(number)
        }
        append(UInt8(ascii: "]"))
    }
}

extension [UInt8] {
    /// Appends `a,b` (no brackets, no array made).
    fileprivate mutating func appendNumbers(_ a: Int, _ b: Int) {
        appendDecimal(a)
        append(UInt8(ascii: ","))
        appendDecimal(b)
    }

    /// Appends `a,b,c,d`.
    fileprivate mutating func appendNumbers(_ a: Int, _ b: Int, _ c: Int, _ d: Int) {
        appendNumbers(a, b)
        append(UInt8(ascii: ","))
        appendNumbers(c, d)
    }
}
