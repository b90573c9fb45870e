import Foundation

/// Hands control to libFuzzer (`LLVMFuzzerRunDriver`), which the fuzzing build links in, with
/// the target the command line names.
package enum FuzzDriver {
    /// The target libFuzzer calls for each input.
    package typealias Target = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    private typealias Driver = @convention(c) (
        UnsafeMutablePointer<Int32>,
        UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        Target
    ) -> Int32

    /// Where libFuzzer's workers (`-jobs`, `-fork`) learn the target: they are started with the
    /// arguments libFuzzer was given, which no longer hold its name.
    static let targetVariable = "ATOMS_FUZZ_TARGET"

    /// The target this process runs, chosen once before libFuzzer starts.
    nonisolated(unsafe) private static var selected: (@Sendable (UnsafeRawBufferPointer) -> Void)?

    /// Runs one input through the selected target.
    package static func runSelectedTarget(_ input: UnsafeRawBufferPointer) {
        selected?(input)
    }

    /// Runs libFuzzer on the target named by the first argument (`atoms-fuzz rules CORPUS…
    /// -max_total_time=60`), or by `ATOMS_FUZZ_TARGET` in libFuzzer's workers; the other
    /// arguments go to libFuzzer. Exits 64 without a known target, 69 when libFuzzer is not
    /// linked in (a normal build). Inputs on which readers disagree go to
    /// `.build-fuzz/findings/TARGET/` (``FuzzFindings``).
    package static func run(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, target: Target) -> Int32 {
        var arguments = (0..<Int(argc)).map { argv?[$0].map { String(cString: $0) } ?? "" }
        if arguments.count > 1, FuzzTargets.all[arguments[1]] != nil {
            setenv(targetVariable, arguments.remove(at: 1), 1)
        }
        guard let name = ProcessInfo.processInfo.environment[targetVariable], let chosen = FuzzTargets.all[name] else {
            FileHandle.standardError.write(Data("usage: atoms-fuzz TARGET [CORPUS…] [libFuzzer options…]; TARGET is one of \(FuzzTargets.all.keys.sorted().joined(separator: ", "))\n".utf8))
            return 64
        }
        selected = chosen
        FuzzFindings.keep(in: ".build-fuzz/findings/" + name)
        // Looked up at run time: a C function cannot be declared in Swift without a header.
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "LLVMFuzzerRunDriver") else {
            FileHandle.standardError.write(Data("libFuzzer is not linked in: build with Fuzz/run.sh\n".utf8))
            return 69
        }
        // libFuzzer keeps pointers into these for the whole run: they are never freed.
        let kept = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: arguments.count + 1)
        for (index, argument) in arguments.enumerated() {
            kept[index] = strdup(argument)
        }
        kept[arguments.count] = nil
        var count = Int32(arguments.count)
        var vector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = kept
        return unsafeBitCast(symbol, to: Driver.self)(&count, &vector, target)
    }
}
