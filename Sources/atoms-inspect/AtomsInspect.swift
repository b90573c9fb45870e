import ArgumentParser
import AtomsInspector

@main
struct AtomsInspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "atoms-inspect",
        abstract: "Inspect journals recorded by the Atoms runtime: log, values, graphs, diffs, time travel, restore, CI checks, tables for SQL engines.",
        discussion: """
            A STEP is 0 (before the first transaction), N (after transaction N), last, or \
            last-K. Every command that prints facts takes --json for the same facts as JSON. \
            Colours are used only on a terminal and never when NO_COLOR is set.
            EXIT STATUS: 0 ok; 1 a check failed, diff --exit-code found differences, find \
            found no step, or compare found the journals diverge; \
            64 usage error (unknown option, bad step, unknown atom, a report over --max-size, attach with several \
            programs to choose from); 65 malformed journal, \
            state file or rules file, broken Debug Adapter Protocol framing (dap), or (profile) a journal recorded without timing; 66 missing or unreadable file; 69 Graphviz dot \
            or DuckDB (export --format parquet) unavailable, or attach cannot reach the program; 73 output file cannot be created, or \
            export's output folder holds files (pass --force); 74 output cannot be written \
            (stdout closed or full, a write to an output file failed); 75 the journal changed \
            while it was being read (truncated, or recorded again at the same path): run the \
            command again.
            export goes on past a journal it cannot read and ends with that journal's status.
            RULES FILE (check --rules): one rule per line, # starts a comment, * in a name \
            matches any run of characters, names may be double-quoted: \
            edge A -> B; no-edge A -> B; node A; no-node A; acyclic; \
            max-depth N (atoms in the longest dependency chain); max-nodes N (live atoms).
            SHELL COMPLETION: atoms-inspect --generate-completion-script bash|zsh|fish prints a \
            completion script (see README.md).
            """,
        version: "1.0.0",
        subcommands: [Log.self, Show.self, Graph.self, Diff.self, Blame.self, Find.self, Compare.self, ReplayTest.self, Step.self, Attach.self, Dap.self, Restore.self, Check.self, Stats.self, Report.self, Export.self, Profile.self]
    )
}
