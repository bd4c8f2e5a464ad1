// memfd_create, MFD_* and F_*SEALS are GNU extensions of glibc's headers.
#define _GNU_SOURCE
#include "CLinux.h"

#include <fcntl.h>
#include <malloc.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

_Static_assert(LENS_SEAL_SEAL == F_SEAL_SEAL, "F_SEAL_SEAL");
_Static_assert(LENS_SEAL_SHRINK == F_SEAL_SHRINK, "F_SEAL_SHRINK");
_Static_assert(LENS_SEAL_GROW == F_SEAL_GROW, "F_SEAL_GROW");
_Static_assert(LENS_SEAL_WRITE == F_SEAL_WRITE, "F_SEAL_WRITE");

int lens_memfd_create_sealable(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int lens_add_seals(int fd, unsigned int seals) {
    return fcntl(fd, F_ADD_SEALS, seals);
}

int lens_get_seals(int fd) {
    return fcntl(fd, F_GET_SEALS);
}

int lens_set_dumpable(int dumpable) {
    return prctl(PR_SET_DUMPABLE, (unsigned long)dumpable, 0UL, 0UL, 0UL);
}

int lens_get_dumpable(void) {
    return prctl(PR_GET_DUMPABLE, 0UL, 0UL, 0UL, 0UL);
}

int lens_pipe_nonblocking_writer(int fds[2]) {
    if (pipe2(fds, O_CLOEXEC) != 0) return -1;
    int flags = fcntl(fds[1], F_GETFL);
    if (flags < 0 || fcntl(fds[1], F_SETFL, flags | O_NONBLOCK) != 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    return 0;
}

int lens_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

int lens_malloc_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

int lens_block_sigpipe(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    return pthread_sigmask(SIG_BLOCK, &set, NULL);
}
