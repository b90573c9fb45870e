/// What a terminal prompt (``StepPrompt``) drives: `step`'s session over a journal, or
/// `attach`'s over a running program.
package protocol PromptSession: AnyObject {
    /// The prompt, showing the position (`[12/340] `).
    var prompt: String { get }
    /// Tab's completions: commands and the journal's atoms.
    var completion: StepCompletion { get }
    /// Told how a long search goes; returning `false` stops it.
    var searchProgress: SearchProgress? { get set }
    /// Handles one command line; returns what to print and whether to quit.
    func handle(_ line: String) -> (output: String, quit: Bool)
}

extension StepSession: PromptSession {}

extension AttachSession: PromptSession {
    package var completion: StepCompletion {
        StepCompletion(atomNames: session.atomNames, runningProgram: true)
    }

    package var searchProgress: SearchProgress? {
        get { session.searchProgress }
        set { session.searchProgress = newValue }
    }
}
