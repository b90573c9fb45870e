#include "CAtomsMapping.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if !defined(MAP_ANONYMOUS) && defined(MAP_ANON)
#define MAP_ANONYMOUS MAP_ANON
#endif

// The table the handler reads: fixed, static, lock-free, so that a signal handler may walk it.
// A slot is free (0), being filled (1) or live (2); the handler only looks at live slots.
#define ATOMS_MAPPING_SLOTS 256

struct atoms_mapping_slot {
    _Atomic int state;
    _Atomic int changed;
    _Atomic uintptr_t base;
    _Atomic size_t length;
};

static struct atoms_mapping_slot slots[ATOMS_MAPPING_SLOTS];
static _Atomic int installed;
// Read once at installation: `sysconf` is not async-signal-safe.
static uintptr_t page_size;
// The action before ours (the Swift runtime's crash reporter, or the default), for faults
// that are not ours.
static struct sigaction previous;

static void atoms_mapping_on_bus_error(int signal_number, siginfo_t *info, void *context) {
    (void)context;
    uintptr_t address = (uintptr_t)info->si_addr;
    if (info->si_code > 0) {  // a fault, not a signal sent with kill(2) or raise(3)
        for (int index = 0; index < ATOMS_MAPPING_SLOTS; index++) {
            struct atoms_mapping_slot *slot = &slots[index];
            if (atomic_load_explicit(&slot->state, memory_order_acquire) != 2) continue;
            uintptr_t base = atomic_load_explicit(&slot->base, memory_order_relaxed);
            size_t length = atomic_load_explicit(&slot->length, memory_order_relaxed);
            if (address < base || address - base >= length) continue;
            // The file ends before this page, so every later page of the range is gone too:
            // zeros over all of them, one signal per cut rather than one per page. mmap(2) is a
            // plain system call, safe in a handler in practice though POSIX does not list it.
            // The reader sees the mark.
            uintptr_t page = address & ~(page_size - 1);
            uintptr_t end = (base + length + page_size - 1) & ~(page_size - 1);
            void *zero = mmap((void *)page, (size_t)(end - page), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
            if (zero == MAP_FAILED) break;
            atomic_store_explicit(&slot->changed, 1, memory_order_release);
            return;
        }
    }
    // Not ours: the action before ours (the default, when there was none), as if ours had
    // never been installed. Returning re-runs the faulting instruction, which faults again
    // into that action; a sent signal is sent again (it is blocked until the handler returns).
    sigaction(signal_number, &previous, NULL);
    if (info->si_code <= 0) raise(signal_number);
}

int atoms_mapping_install_handler(void) {
    if (atomic_load(&installed)) return 0;
    long size = sysconf(_SC_PAGESIZE);
    page_size = size > 0 ? (uintptr_t)size : 4096;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = atoms_mapping_on_bus_error;
    action.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGBUS, &action, &previous) != 0) return -1;
    atomic_store(&installed, 1);
    return 0;
}

int atoms_mapping_handler_installed(void) {
    return atomic_load(&installed);
}

int atoms_mapping_register(const void *base, size_t length) {
    for (int index = 0; index < ATOMS_MAPPING_SLOTS; index++) {
        int expected = 0;
        if (!atomic_compare_exchange_strong(&slots[index].state, &expected, 1)) continue;
        atomic_store_explicit(&slots[index].base, (uintptr_t)base, memory_order_relaxed);
        atomic_store_explicit(&slots[index].length, length, memory_order_relaxed);
        atomic_store_explicit(&slots[index].changed, 0, memory_order_relaxed);
        atomic_store_explicit(&slots[index].state, 2, memory_order_release);
        return index;
    }
    return -1;
}

void atoms_mapping_unregister(int slot) {
    if (slot < 0 || slot >= ATOMS_MAPPING_SLOTS) return;
    atomic_store_explicit(&slots[slot].state, 0, memory_order_release);
}

int atoms_mapping_changed(int slot) {
    if (slot < 0 || slot >= ATOMS_MAPPING_SLOTS) return 0;
    return atomic_load_explicit(&slots[slot].changed, memory_order_acquire);
}
