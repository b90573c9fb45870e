// The one file action Swift's Glibc module does not show: it is declared only under
// _GNU_SOURCE, which a C file can define and Swift's import of the C library cannot.
#if !defined(__APPLE__)
#define _GNU_SOURCE
#endif

#include "CAtomsSpawn.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
#define ATOMS_HAS_CLOSEFROM 1
#endif

int atoms_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
#if defined(ATOMS_HAS_CLOSEFROM)
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#else
    DIR *directory = opendir("/dev/fd");
    if (directory == NULL) {
        return errno;
    }
    int own = dirfd(directory);
    int status = 0;
    struct dirent *entry;
    while (status == 0 && (entry = readdir(directory)) != NULL) {
        char *end;
        long descriptor = strtol(entry->d_name, &end, 10);
        if (end == entry->d_name || *end != '\0' || descriptor < lowest || descriptor == own) {
            continue;
        }
        status = posix_spawn_file_actions_addclose(actions, (int)descriptor);
    }
    closedir(directory);
    return status;
#endif
}
