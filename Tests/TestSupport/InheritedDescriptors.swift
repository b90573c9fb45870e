import Foundation

/// What a program started with `posix_spawn` must not inherit.
///
/// Foundation's `Process` closes every other descriptor in the child; `posix_spawn` does not,
/// and tests run side by side: a tmux server or a browser started while another test holds a
/// pipe would keep that pipe's write end open for as long as it lives, and the program at the
/// other end would never see the end of its input.
public enum InheritedDescriptors {
    /// Adds to `actions` a close of every descriptor open now above `highest` (glibc ignores a
    /// close of one that is closed by the time the child starts).
    public static func close(above highest: Int32, in actions: inout posix_spawn_file_actions_t) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in names.compactMap(Int32.init) where descriptor > highest {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }
}
