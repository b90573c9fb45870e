import Foundation

/// Hands control to libFuzzer (`LLVMFuzzerRunDriver`), which the fuzzing build links in.
public enum FuzzDriver {
    /// The target libFuzzer calls for each input.
    public typealias Target = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    private typealias Driver = @convention(c) (
        UnsafeMutablePointer<Int32>,
        UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        Target
    ) -> Int32

    /// Runs libFuzzer with the program's arguments; exits 69 when it is not linked in (a
    /// normal build). Inputs on which readers disagree go to `.build-fuzz/findings/TARGET/`
    /// (``FuzzFindings``), TARGET being the program's name without `fuzz-`.
    public static func run(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, target: Target) -> Int32 {
        let program = argv?.pointee.map { String(cString: $0) } ?? "fuzz"
        let name = (program as NSString).lastPathComponent
        FuzzFindings.keep(in: ".build-fuzz/findings/" + (name.hasPrefix("fuzz-") ? String(name.dropFirst(5)) : name))
        // Looked up at run time: a C function cannot be declared in Swift without a header.
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "LLVMFuzzerRunDriver") else {
            FileHandle.standardError.write(Data("libFuzzer is not linked in: build with Fuzz/run.sh\n".utf8))
            return 69
        }
        var argc = argc
        var argv = argv
        return unsafeBitCast(symbol, to: Driver.self)(&argc, &argv, target)
    }
}
