#ifndef CATOMSMAPPING_H
#define CATOMSMAPPING_H

#include <stddef.h>

/// Installs the process-wide SIGBUS handler that makes reading a registered mapping safe when
/// its file shrinks: a fault inside a registered range maps zero pages from the faulting page
/// to the range's end and marks the range as changed, so the read goes on (reading zeros) and
/// the reader reports the file as changed. A fault anywhere else goes to the action installed
/// before (the Swift runtime's crash report, or the default: the process ends).
/// Only an executable calls this (never a library). Returns 0 on success (or when already
/// installed), -1 when `sigaction` fails.
int atoms_mapping_install_handler(void);

/// Whether the handler is installed: readers map files only then.
int atoms_mapping_handler_installed(void);

/// Registers `[base, base + length)` as a mapping the handler may patch. Returns the slot to
/// pass to the functions below, or -1 when every slot is taken (then read without mapping).
int atoms_mapping_register(const void *_Nonnull base, size_t length);

/// Forgets the range of `slot`, before it is unmapped.
void atoms_mapping_unregister(int slot);

/// Whether a fault was patched inside the range of `slot` (its file shrank under it).
int atoms_mapping_changed(int slot);

#endif
