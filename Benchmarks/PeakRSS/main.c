// peak-rss PROGRAM [ARGUMENT...]: runs PROGRAM with its standard output discarded, and prints
// the peak resident set size of that process alone, in bytes (wait4's ru_maxrss).
//
// atoms-bench measures atoms-inspect through this small program, not directly: Linux counts the
// address space a process had before its exec in its ru_maxrss, so a child forked or spawned
// by atoms-bench itself (hundreds of megabytes after generating a journal) would report
// atoms-bench's size. Forked from this program, the child starts from a megabyte or two.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: peak-rss PROGRAM [ARGUMENT...]\n");
        return 64;
    }
    pid_t child = fork();
    if (child < 0) {
        perror("peak-rss: fork");
        return 71;
    }
    if (child == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
        }
        execv(argv[1], argv + 1);
        perror("peak-rss: exec");
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    while (wait4(child, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            perror("peak-rss: wait4");
            return 71;
        }
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "peak-rss: %s failed (status %d)\n", argv[1], status);
        return 1;
    }
    // ru_maxrss is in kilobytes on Linux.
    printf("%ld\n", usage.ru_maxrss * 1024L);
    return 0;
}
