import AtomsJournalReader

/// A run of timed transactions in the Trace Event Format (JSON), which Perfetto's UI and
/// chrome://tracing open: each transaction a complete slice (`X`) named by its cause and write
/// site, its atom evaluations, effects and subscribers slices nested in it, and asynchronous
/// tasks as async slices (`b`/`e`) from their start to their result. Timestamps are
/// microseconds from the start of recording; docs/PROFILE.md gives the mapping.
enum TraceEvents {
    /// One event, with what orders it among events of the same time.
    private struct Event {
        /// Nanoseconds from the start of recording.
        let time: Int
        /// Longer slices first at one time, so enclosing slices open before what they hold.
        let duration: Int
        let json: String
    }

    /// The document, as UTF-8 JSON: `{"traceEvents":[…],"displayTimeUnit":"ms"}`, events in
    /// time order, one per line.
    static func document(_ timed: TimedSteps, program: String?) -> [UInt8] {
        var events: [Event] = []
        func slice(_ name: String, category: String, start: Int, duration: Int, args: String) {
            events.append(Event(time: start, duration: duration, json:
                #"{"name":\#(quoted(name)),"cat":"\#(category)","ph":"X","ts":\#(micros(start)),"dur":\#(micros(duration)),"pid":1,"tid":1,"args":{\#(args)}}"#))
        }
        var taskID = 0
        for transaction in timed.transactions {
            let timing = transaction.timing
            let start = timing.start
            let step = #""step":\#(transaction.step)"#
            slice(transaction.title, category: "transaction", start: start, duration: transaction.duration, args:
                #"\#(step),"cause":\#(quoted(transaction.cause)),"runtime_us":\#(micros(timing.runtime)),"observers_us":\#(micros(timing.observers)),"effects_us":\#(micros(timing.effects)),"subscribers_us":\#(micros(timing.subscribers))"#)
            for evaluation in timing.evaluations {
                let wasted = transaction.unchanged.contains(evaluation.atom)
                slice(timed.name(evaluation.atom), category: "evaluation", start: start &+ evaluation.start, duration: evaluation.duration, args: #"\#(step),"wasted":\#(wasted)"#)
            }
            for run in timing.effectRuns {
                slice("effect " + timed.name(run.atom), category: "effect", start: start &+ run.start, duration: run.duration, args: step)
            }
            for run in timing.subscriberRuns {
                slice("subscriber " + run.at, category: "subscriber", start: start &+ run.start, duration: run.duration, args: step)
            }
            for task in timing.tasks {
                taskID += 1
                let common = #""name":\#(quoted(timed.name(task.atom))),"cat":"task","id":"\#(taskID)","pid":1,"tid":1"#
                events.append(Event(time: task.start, duration: task.end &- task.start, json: #"{\#(common),"ph":"b","ts":\#(micros(task.start)),"args":{}}"#))
                let outcome = task.committed ? "result" : "dropped"
                events.append(Event(time: task.end, duration: -1, json: #"{\#(common),"ph":"e","ts":\#(micros(task.end)),"args":{\#(step),"outcome":"\#(outcome)"}}"#))
            }
        }
        // Stable: equal times keep longer slices first, then the order they were made in.
        let ordered = events.enumerated().sorted { a, b in
            (a.element.time, -a.element.duration, a.offset) < (b.element.time, -b.element.duration, b.offset)
        }.map(\.element.json)
        let metadata = [
            #"{"name":"process_name","ph":"M","ts":0,"pid":1,"tid":1,"args":{"name":\#(quoted(program ?? "atoms journal"))}}"#,
            #"{"name":"thread_name","ph":"M","ts":0,"pid":1,"tid":1,"args":{"name":"main actor"}}"#,
        ]
        let text = "{\"traceEvents\":[\n" + (metadata + ordered).joined(separator: ",\n") + "\n],\"displayTimeUnit\":\"ms\"}\n"
        return Array(text.utf8)
    }

    /// Nanoseconds as microseconds, exactly (`1234.567`).
    static func micros(_ nanoseconds: Int) -> String {
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        let fraction = magnitude % 1_000
        return sign + String(magnitude / 1_000) + (fraction == 0 ? "" : "." + String(fraction).leftPadded(to: 3, with: "0"))
    }

    private static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.appendJSONString(text)
        return String(decoding: bytes, as: UTF8.self)
    }
}
