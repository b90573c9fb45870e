// Stack switching for deep atom chains.
//
// An atom's `value(context:)` watches other atoms synchronously, so computing the head of an
// N-long chain nests N user calls. Instead of a depth limit, the runtime checks the remaining
// stack before each computation and, when it runs low, continues on a fresh mapped stack on the
// same thread (ucontext), so actor isolation and thread-local state are untouched.
#if defined(__APPLE__)
#define _XOPEN_SOURCE 700
#define _DARWIN_C_SOURCE
#else
#define _GNU_SOURCE
#endif

#include "CAtomsStack.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ATOMS_TSAN 1
#endif
#if __has_feature(address_sanitizer)
#define ATOMS_ASAN 1
#endif
#endif

#if defined(ATOMS_TSAN)
// ThreadSanitizer must be told about stack switches, or it reads the wrong shadow stack.
void *__tsan_get_current_fiber(void);
void *__tsan_create_fiber(unsigned flags);
void __tsan_destroy_fiber(void *fiber);
void __tsan_switch_to_fiber(void *fiber, unsigned flags);
#endif
#if defined(ATOMS_ASAN)
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old, size_t *size_old);
#endif

#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

// Thread-locals use the initial-exec model: the check runs before every top-level atom
// computation, and the general-dynamic model would add a `__tls_get_addr` call to each.
#define ATOMS_TLS __thread __attribute__((tls_model("initial-exec")))

// Lowest usable address of the stack the thread currently runs on (0 until first queried).
static ATOMS_TLS uintptr_t current_stack_low = 0;

static uintptr_t thread_stack_low(void) {
#if defined(__APPLE__)
    pthread_t self = pthread_self();
    uintptr_t top = (uintptr_t)pthread_get_stackaddr_np(self);
    return top - (uintptr_t)pthread_get_stacksize_np(self);
#else
    pthread_attr_t attributes;
    void *address = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) {
        return 1; // Unknown bounds: report a non-zero floor so the check still runs.
    }
    pthread_attr_getstack(&attributes, &address, &size);
    pthread_attr_destroy(&attributes);
    return (uintptr_t)address;
#endif
}

size_t atoms_stack_reserve(void) {
#if defined(ATOMS_TSAN) || defined(ATOMS_ASAN)
    // Sanitizer runtimes run deep on the current stack (interceptors, reports).
    return 2u * 1024u * 1024u;
#else
    return 256u * 1024u;
#endif
}

size_t atoms_fresh_stack_size(void) {
#if defined(ATOMS_TSAN) || defined(ATOMS_ASAN)
    // Sanitizers keep a bounded shadow call stack per fiber: switch fibers more often.
    return 16u * 1024u * 1024u;
#else
    return 256u * 1024u * 1024u;
#endif
}

int atoms_stack_is_low(size_t reserve) {
    if (current_stack_low == 0) {
        current_stack_low = thread_stack_low();
    }
    volatile char marker = 0;
    uintptr_t here = (uintptr_t)&marker;
    return here < current_stack_low + reserve ? 1 : 0;
}

struct fresh_stack_call {
    atoms_stack_body body;
    void *context;
#if defined(ATOMS_TSAN)
    void *caller_fiber;
#endif
#if defined(ATOMS_ASAN)
    const void *caller_bottom;
    size_t caller_size;
#endif
};

static ATOMS_TLS struct fresh_stack_call *pending_call = NULL;

// Not instrumented: ThreadSanitizer keeps a shadow call stack per fiber, and an instrumented
// function pushes its frame on entry and pops one on exit from whichever fiber is current
// then. This function starts on the fresh fiber and switches back to the caller's before it
// returns, so its exit would pop a frame of the caller's fiber that it never pushed: every
// fresh stack would unbalance the caller's shadow stack by one, until it ran below its start
// and overwrote the sanitizer's own memory (crashes inside the sanitizer runtime, at random).
#if defined(ATOMS_TSAN)
__attribute__((disable_sanitizer_instrumentation))
#endif
static void fresh_stack_entry(void) {
    struct fresh_stack_call *call = pending_call;
#if defined(ATOMS_ASAN)
    __sanitizer_finish_switch_fiber(NULL, &call->caller_bottom, &call->caller_size);
#endif
    call->body(call->context);
#if defined(ATOMS_ASAN)
    __sanitizer_start_switch_fiber(NULL, call->caller_bottom, call->caller_size);
#endif
#if defined(ATOMS_TSAN)
    __tsan_switch_to_fiber(call->caller_fiber, 0);
#endif
}

int atoms_run_on_fresh_stack(size_t size, atoms_stack_body body, void *context) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size = (size + page - 1) / page * page;
    // One extra guard page below the stack turns an overflow into a clean fault, not corruption.
    size_t mapped = size + page;
    int flags = MAP_PRIVATE | MAP_ANON;
#if defined(MAP_NORESERVE)
    flags |= MAP_NORESERVE;
#endif
    void *memory = mmap(NULL, mapped, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (memory == MAP_FAILED) {
        body(context);
        return -1;
    }
    mprotect(memory, page, PROT_NONE);

    ucontext_t caller;
    ucontext_t callee;
    struct fresh_stack_call call = { body, context };
    if (getcontext(&callee) != 0) {
        munmap(memory, mapped);
        body(context);
        return -1;
    }
    callee.uc_stack.ss_sp = (char *)memory + page;
    callee.uc_stack.ss_size = size;
    callee.uc_link = &caller;
    makecontext(&callee, fresh_stack_entry, 0);

    uintptr_t saved_low = current_stack_low;
    struct fresh_stack_call *saved_call = pending_call;
    pending_call = &call;
    current_stack_low = (uintptr_t)memory + page;
#if defined(ATOMS_TSAN)
    call.caller_fiber = __tsan_get_current_fiber();
    void *fiber = __tsan_create_fiber(0);
    __tsan_switch_to_fiber(fiber, 0);
#endif
#if defined(ATOMS_ASAN)
    void *fake_stack = NULL;
    __sanitizer_start_switch_fiber(&fake_stack, (char *)memory + page, size);
#endif
    int status = swapcontext(&caller, &callee);
#if defined(ATOMS_ASAN)
    __sanitizer_finish_switch_fiber(fake_stack, NULL, NULL);
#endif
#if defined(ATOMS_TSAN)
    __tsan_destroy_fiber(fiber);
#endif
    current_stack_low = saved_low;
    pending_call = saved_call;

    munmap(memory, mapped);
    if (status != 0) {
        body(context);
        return -1;
    }
    return 0;
}
