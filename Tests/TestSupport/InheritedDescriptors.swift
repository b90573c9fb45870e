import CAtomsSpawn
import Foundation

/// What a program started with `posix_spawn` must not inherit.
///
/// Foundation's `Process` closes every other descriptor in the child; `posix_spawn` does not,
/// and tests run side by side: a tmux server or a browser started while another test holds a
/// pipe would keep that pipe's write end open for as long as it lives, and the program at the
/// other end would never see the end of its input.
public enum InheritedDescriptors {
    /// Adds to `actions` a close of every descriptor above `highest`, taken when the child
    /// starts (so a pipe another test opens meanwhile is closed too).
    public static func close(above highest: Int32, in actions: inout posix_spawn_file_actions_t) {
        _ = atoms_spawn_close_from(&actions, highest + 1)
    }
}
