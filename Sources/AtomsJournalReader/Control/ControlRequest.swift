/// One request of the control protocol (docs/CONTROL.md), as a client sends it on one line.
package enum ControlRequest: Equatable, Sendable {
    /// `hello VERSION`: the protocol version the client speaks; the program answers with
    /// itself (name, pid, journal, step).
    case hello(version: Int)
    /// `follow`: the journal's lines as they are recorded, from now on.
    case follow
    /// `state`: the step the program is at, and whether it is in the past.
    case state
    /// `jump STEP`: restore the live program to the recorded state at STEP.
    case jump(step: Int)
    /// `live`: return every atom to its value before the first jump.
    case live
    /// `set BASE64`: write a value into a cached state, as one `inspector` transaction.
    case set(ControlMessages.SetValue)
    /// `close`: end the connection.
    case close

    /// The request's word, as replies name it.
    package var name: String {
        switch self {
        case .hello: "hello"
        case .follow: "follow"
        case .state: "state"
        case .jump: "jump"
        case .live: "live"
        case .set: "set"
        case .close: "close"
        }
    }

    /// Whether the request runs on the main actor (it reads or changes the store), rather
    /// than on the control thread.
    package var needsMainActor: Bool {
        switch self {
        case .hello, .state, .jump, .live, .set: true
        case .follow, .close: false
        }
    }
}
