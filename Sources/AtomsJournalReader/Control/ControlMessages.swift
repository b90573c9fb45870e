/// The bodies of the program's replies and events, as JSON (docs/CONTROL.md). The program
/// encodes them; `atoms-inspect attach` decodes them.
package enum ControlMessages {
    /// `ok hello`: who the program is.
    package struct Hello: Codable, Equatable, Sendable {
        /// The protocol version the program speaks.
        package var protocolVersion: Int
        /// The program's name, as its journal's header has it.
        package var program: String
        /// Its process id.
        package var pid: Int
        /// The journal it records to, as an absolute path (a file, or a bounded journal's folder).
        package var journal: String
        /// The last step it has recorded.
        package var step: Int

        /// Creates the body from its members.
        package init(protocolVersion: Int, program: String, pid: Int, journal: String, step: Int) {
            self.protocolVersion = protocolVersion
            self.program = program
            self.pid = pid
            self.journal = journal
            self.step = step
        }
    }

    /// `ok state`: where the program is.
    package struct State: Codable, Equatable, Sendable {
        /// The last step recorded: the store holds the journal's state at this step.
        package var step: Int
        /// While in the past: the step jumped to last, whose values the store shows.
        package var shows: Int?
        /// While in the past: the last step before the first jump (what `live` returns to).
        package var present: Int?

        /// Creates the body from its members.
        package init(step: Int, shows: Int?, present: Int?) {
            self.step = step
            self.shows = shows
            self.present = present
        }
    }

    /// `ok jump` and `ok live`: what moved.
    package struct Moved: Codable, Equatable, Sendable {
        /// The step whose values the store now holds.
        package var step: Int
        /// The step of the `restore` transaction that recorded the move; `nil` when nothing
        /// changed (the program was already there).
        package var recorded: Int?
        /// The atoms that took recorded values.
        package var restored: [String]
        /// The live atoms that were not restored, and why (not Codable, redacted, …).
        package var skipped: [Skipped]

        /// Creates the body from its members.
        package init(step: Int, recorded: Int?, restored: [String], skipped: [Skipped]) {
            self.step = step
            self.recorded = recorded
            self.restored = restored
            self.skipped = skipped
        }
    }

    /// An atom not restored by a move.
    package struct Skipped: Codable, Equatable, Sendable {
        /// The atom, as the journal names it.
        package var atom: String
        /// Why it kept its value.
        package var reason: String

        /// Creates the body from its members.
        package init(atom: String, reason: String) {
            self.atom = atom
            self.reason = reason
        }
    }

    /// `set`'s argument: which atom, and its new value.
    package struct SetValue: Codable, Equatable, Sendable {
        /// The atom, as the journal identifies it: `TYPE|KEY|SCOPE`
        /// (``AtomDeclaration/identityKey``).
        package var atom: String
        /// The value, as the journal records it (what the atom's `Codable` conformance reads).
        package var value: JSONValue

        /// Creates the body from its members.
        package init(atom: String, value: JSONValue) {
            self.atom = atom
            self.value = value
        }
    }

    /// `ok set`: the value was written.
    package struct Written: Codable, Equatable, Sendable {
        /// The atom, as the program names it.
        package var atom: String
        /// The step of the `inspector` transaction that wrote it.
        package var recorded: Int

        /// Creates the body from its members.
        package init(atom: String, recorded: Int) {
            self.atom = atom
            self.recorded = recorded
        }
    }

    /// `ok follow`: where the journal's lines start.
    package struct Follow: Codable, Equatable, Sendable {
        /// The byte offset of the first line that will follow.
        package var offset: Int

        /// Creates the body from its members.
        package init(offset: Int) {
            self.offset = offset
        }
    }

    /// `event excursion-ended`: a write of the program's own ended a trip to the past.
    package struct ExcursionEnded: Codable, Equatable, Sendable {
        /// The step of the program's transaction.
        package var step: Int
        /// Its cause (`set`, `modify`, …).
        package var cause: String

        /// Creates the body from its members.
        package init(step: Int, cause: String) {
            self.step = step
            self.cause = cause
        }
    }

    /// `event missed`: journal lines a slow client was not sent.
    package struct Missed: Codable, Equatable, Sendable {
        /// How many lines were left out.
        package var lines: Int

        /// Creates the body from its members.
        package init(lines: Int) {
            self.lines = lines
        }
    }

    /// `ok close` and `event closing`.
    package struct Empty: Codable, Equatable, Sendable {
        package init() {}
    }
}

extension ControlMessages {
    /// The step of a transaction line the recorder writes (`[12,…`), as `event journal` carries
    /// it; `nil` for the other lines.
    package static func transactionStep(of line: some Collection<UInt8>) -> Int? {
        guard line.first == UInt8(ascii: "[") else { return nil }
        let digits = line.dropFirst().prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
