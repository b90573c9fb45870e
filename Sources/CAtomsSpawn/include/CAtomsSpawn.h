#ifndef CATOMSSPAWN_H
#define CATOMSSPAWN_H

#include <spawn.h>

/// Adds to `actions` a close, in the child, of every descriptor numbered `lowest` or above,
/// taken at the moment the child starts: a program started by a process whose other threads
/// open descriptors at any time inherits none of them (a pipe's write end kept open by a
/// child would keep its reader from ever seeing the end of its input).
///
/// Uses glibc's `posix_spawn_file_actions_addclosefrom_np` where there is one; elsewhere adds
/// a close of each descriptor open now (listed in /dev/fd), which misses one opened between
/// this call and the spawn. Returns 0, or an `errno` value.
int atoms_spawn_close_from(posix_spawn_file_actions_t *_Nonnull actions, int lowest);

#endif
