import Atoms
import SampleSupport
import SampleNumpad
// sample-numpad: the time-travel demo. Commands on stdin: a digit 0-9 (or several, e.g. 42),
// clear, state. With --control, the display is printed whenever it changes (time travel).

@MainActor
func runNumpad() async {
    let session = SampleSession(name: "sample-numpad")
    let pad = session.root.viewContext()
    pad.watch(DisplayAtom())
    pad.watch(KeystrokesAtom())
    session.showWhileControlled { "display " + pad.read(DisplayAtom()) }
    await session.runAsync(
        state: {
            ["InputAtom": pad.read(InputAtom()), "DisplayAtom": pad.read(DisplayAtom()), "KeystrokesAtom": pad.read(KeystrokesAtom())]
        }
    ) { command, _ in
        if command == "clear" {
            pad[InputAtom()] = ""
            return true
        }
        guard !command.isEmpty, command.allSatisfy(\.isWholeNumber) else {
            return false
        }
        for digit in command {
            pad[InputAtom()].append(digit)  // one transaction per key press
        }
        return true
    }
}

await runNumpad()
