// The dap fuzz target (Debug Adapter Protocol framing and requests). Built by Fuzz/run.sh (-sanitize=fuzzer, -DFUZZING), libFuzzer runs
// it; built normally, it replays the input files it is given.
import AtomsFuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    FuzzTargets.debugAdapter(UnsafeRawBufferPointer(start: data, count: count))
    return 0
}

#if FUZZING
// SwiftPM links an executable's entry point as `main` under this name.
@_cdecl("fuzz_dap_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzDriver.run(argc: argc, argv: argv, target: fuzzTestOneInput)
}
#else
@main
struct DebugAdapterReplay {
    static func main() {
        FuzzReplay.main(FuzzTargets.debugAdapter)
    }
}
#endif
