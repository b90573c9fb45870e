#ifndef CATOMSSTACK_H
#define CATOMSSTACK_H

#include <stddef.h>

/// A function run on a fresh stack; `context` is passed through unchanged.
typedef void (*atoms_stack_body)(void *_Nullable context);

/// Returns 1 when fewer than `reserve` bytes of stack remain on the current stack
/// (the thread's own, or one entered through `atoms_run_on_fresh_stack`), 0 otherwise.
int atoms_stack_is_low(size_t reserve);

/// The stack to keep free below a computation: larger under sanitizers.
size_t atoms_stack_reserve(void);

/// The size of fresh stacks: large normally, smaller under sanitizers (whose shadow call
/// stacks are bounded per fiber).
size_t atoms_fresh_stack_size(void);

/// Runs `body(context)` on a newly mapped stack of `size` bytes on the calling thread
/// and returns once it finishes. Returns 0 on success, -1 when the stack could not be
/// mapped or entered (then `body` ran on the current stack instead).
int atoms_run_on_fresh_stack(size_t size, atoms_stack_body _Nonnull body, void *_Nullable context);

#endif
