import Foundation

/// Checks a Trace Event Format document (JSON object form) against the format's rules that
/// Perfetto and chrome://tracing rely on; returns what is wrong, empty when nothing is.
///
/// - every event has `name`, `ph`, `ts` (a number), `pid` and `tid`;
/// - events are sorted by `ts`;
/// - `X` events have a `dur` of at least 0, and on one thread they nest (a slice that starts
///   inside another ends inside it);
/// - `B` and `E` events pair up on each thread, innermost first, with matching names;
/// - async `b` and `e` events pair up by `cat` and `id`, `e` after `b`, each id used once.
enum TraceValidator {
    static func problems(in data: Data) -> [String] {
        guard let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let events = document["traceEvents"] as? [[String: Any]]
        else {
            return ["not a JSON object with a traceEvents array"]
        }
        var problems: [String] = []
        var lastTime = -Double.infinity
        var open: [String: [(name: String, end: Double?)]] = [:]  // per thread: B (end nil) and X slices
        var async: [String: Double] = [:]
        var closedAsync: Set<String> = []
        for (index, event) in events.enumerated() {
            guard let name = event["name"] as? String, let phase = event["ph"] as? String,
                let time = (event["ts"] as? NSNumber)?.doubleValue, event["pid"] != nil, event["tid"] != nil
            else {
                problems.append("event \(index) lacks name, ph, ts, pid or tid")
                continue
            }
            if time < lastTime { problems.append("event \(index) (\(name)) at \(time) is before \(lastTime)") }
            lastTime = time
            let thread = "\(event["pid"]!)/\(event["tid"]!)"
            // Slices that ended by now are closed.
            var stack = open[thread] ?? []
            while let top = stack.last, let end = top.end, end <= time, phase != "E" || top.end != nil {
                stack.removeLast()
            }
            switch phase {
            case "X":
                guard let duration = (event["dur"] as? NSNumber)?.doubleValue, duration >= 0 else {
                    problems.append("event \(index) (\(name)) is X without a dur of at least 0")
                    break
                }
                // In nanoseconds, as the trace was written: decimal microseconds add up inexactly.
                let end = ((time + duration) * 1_000).rounded() / 1_000
                if let top = stack.last, let enclosing = top.end, end > enclosing {
                    problems.append("event \(index) (\(name)) ends at \(end), after the slice it is in (\(top.name)) ends at \(enclosing)")
                }
                stack.append((name, end))
            case "B":
                stack.append((name, nil))
            case "E":
                while let top = stack.last, top.end != nil { stack.removeLast() }
                if let top = stack.popLast() {
                    if top.name != name { problems.append("event \(index): E \(name) closes B \(top.name)") }
                } else {
                    problems.append("event \(index): E \(name) without a B")
                }
            case "b", "e":
                guard let id = event["id"].map({ "\($0)" }), let category = event["cat"] as? String else {
                    problems.append("event \(index) (\(name)) is async without cat and id")
                    break
                }
                let key = category + "/" + id
                if phase == "b" {
                    if async[key] != nil || closedAsync.contains(key) { problems.append("async id \(key) begins twice") }
                    async[key] = time
                } else if let start = async.removeValue(forKey: key) {
                    if time < start { problems.append("async id \(key) ends before it begins") }
                    closedAsync.insert(key)
                } else {
                    problems.append("event \(index): async end \(key) without a begin")
                }
            case "M":
                break
            default:
                problems.append("event \(index) has an unexpected ph \(phase)")
            }
            open[thread] = stack
        }
        for (thread, stack) in open where stack.contains(where: { $0.end == nil }) {
            problems.append("thread \(thread) has B events without an E")
        }
        for key in async.keys.sorted() {
            problems.append("async id \(key) never ends")
        }
        return problems
    }
}
