// atoms-fuzz: every fuzz target in one executable, so that Fuzz/run.sh builds and links once
// for all of them (docs/FUZZING.md). Built by Fuzz/run.sh (-sanitize=fuzzer, -DFUZZING),
// libFuzzer runs the target `atoms-fuzz TARGET …` names; built normally, it replays the input
// files it is given: `swift run atoms-fuzz rules crash-…`.
import AtomsFuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    FuzzDriver.runSelectedTarget(UnsafeRawBufferPointer(start: data, count: count))
    return 0
}

#if FUZZING
// SwiftPM links an executable's entry point as `main` under this name.
@_cdecl("atoms_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzDriver.run(argc: argc, argv: argv, target: fuzzTestOneInput)
}
#else
@main
struct FuzzInputReplay {
    static func main() {
        FuzzReplay.main()
    }
}
#endif
