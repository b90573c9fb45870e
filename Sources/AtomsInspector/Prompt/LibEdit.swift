#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libedit's readline-compatible functions and variables, found at run time with `dlopen`:
/// nothing links libedit at build time (no headers are needed), and a system without it
/// gets plain input with a notice instead of a failure to start.
///
/// libedit (BSD licence) ships with every Swift toolchain on Linux as `libedit2`; GNU
/// readline (GPL) is never loaded.
struct LibEdit {
    typealias Readline = @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>?
    typealias AddHistory = @convention(c) (UnsafePointer<CChar>?) -> Int32
    typealias StifleHistory = @convention(c) (Int32) -> Void
    /// `int (*rl_getc_function)(FILE *)`.
    typealias GetCharacter = @convention(c) (OpaquePointer?) -> Int32
    /// `char **(*rl_attempted_completion_function)(const char *text, int start, int end)`.
    typealias Complete = @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    /// `char *(*rl_completion_entry_function)(const char *text, int state)`.
    typealias CompletionEntry = @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<CChar>?

    let readline: Readline
    let addHistory: AddHistory
    let stifleHistory: StifleHistory
    /// The variables: where libedit looks for the hooks and settings.
    let getCharacter: UnsafeMutablePointer<GetCharacter?>
    let attemptedCompletion: UnsafeMutablePointer<Complete?>
    let completionEntry: UnsafeMutablePointer<CompletionEntry?>
    let catchSignals: UnsafeMutablePointer<Int32>
    let lineBuffer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    let readlineName: UnsafeMutablePointer<UnsafePointer<CChar>?>

    /// The library's file name.
    static let libraryName = "libedit.so.2"

    /// Loads libedit, or says why it cannot.
    static func load() -> Swift.Result<LibEdit, LoadError> {
        guard let handle = dlopen(libraryName, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(LoadError(reason: dlerror().map { String(cString: $0) } ?? "\(libraryName) not found"))
        }
        func symbol<T>(_ name: String, as: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
        }
        func variable<T>(_ name: String, as: T.Type) -> UnsafeMutablePointer<T>? {
            dlsym(handle, name).map { $0.assumingMemoryBound(to: T.self) }
        }
        guard let readline = symbol("readline", as: Readline.self),
            let addHistory = symbol("add_history", as: AddHistory.self),
            let stifleHistory = symbol("stifle_history", as: StifleHistory.self),
            let getCharacter = variable("rl_getc_function", as: GetCharacter?.self),
            let attemptedCompletion = variable("rl_attempted_completion_function", as: Complete?.self),
            let completionEntry = variable("rl_completion_entry_function", as: CompletionEntry?.self),
            let catchSignals = variable("rl_catch_signals", as: Int32.self),
            let lineBuffer = variable("rl_line_buffer", as: UnsafeMutablePointer<CChar>?.self),
            let readlineName = variable("rl_readline_name", as: UnsafePointer<CChar>?.self)
        else {
            dlclose(handle)
            return .failure(LoadError(reason: "\(libraryName) lacks its readline-compatible functions"))
        }
        return .success(LibEdit(
            readline: readline, addHistory: addHistory, stifleHistory: stifleHistory,
            getCharacter: getCharacter, attemptedCompletion: attemptedCompletion, completionEntry: completionEntry,
            catchSignals: catchSignals, lineBuffer: lineBuffer, readlineName: readlineName
        ))
    }

    /// Why libedit could not be used.
    struct LoadError: Error {
        let reason: String
    }
}
