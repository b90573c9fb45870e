/// Told where a long search is, every few thousand steps: the step it reached and the steps
/// it covers. Returning `false` stops the search (Ctrl-C at the step prompt).
package typealias SearchProgress = (_ step: Int, _ steps: ClosedRange<Int>) -> Bool
