#ifndef LENS_CLINUX_H
#define LENS_CLINUX_H

// Linux calls Swift's Glibc module cannot reach. That module is built without _GNU_SOURCE, so
// memfd_create, the MFD_* flags and the F_ADD_SEALS/F_GET_SEALS commands are invisible to Swift,
// and prctl is variadic, which Swift does not import. Nothing here but adaptation.

// File seal bits. They are kernel ABI (<linux/fcntl.h>); shim.c checks them against glibc's
// F_SEAL_* at compile time, so this header needs no system header at all.
#define LENS_SEAL_SEAL 0x0001
#define LENS_SEAL_SHRINK 0x0002
#define LENS_SEAL_GROW 0x0004
#define LENS_SEAL_WRITE 0x0008

/// memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING): the new fd, or -1 with errno set.
int lens_memfd_create_sealable(const char *name);

/// fcntl(fd, F_ADD_SEALS, seals): 0, or -1 with errno set.
int lens_add_seals(int fd, unsigned int seals);

/// fcntl(fd, F_GET_SEALS): the LENS_SEAL_* bits in force, or -1 with errno set.
int lens_get_seals(int fd);

/// prctl(PR_SET_DUMPABLE, dumpable): 0, or -1 with errno set.
int lens_set_dumpable(int dumpable);

/// prctl(PR_GET_DUMPABLE): 1 or 0 (2 under fs.suid_dumpable=2), or -1 with errno set.
int lens_get_dumpable(void);

/// pipe2(fds, O_CLOEXEC), then O_NONBLOCK on the write end fds[1]: 0, or -1 with errno set
/// (and nothing left open).
int lens_pipe_nonblocking_writer(int fds[2]);

/// eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK): the new fd, or -1 with errno set.
int lens_eventfd(void);

/// mallopt(M_MMAP_THRESHOLD, bytes) (<malloc.h>, which Swift's Glibc module leaves out): blocks
/// of at least `bytes` get a mapping of their own, unmapped when freed; 1 on success.
int lens_malloc_mmap_threshold(int bytes);

/// Blocks SIGPIPE for the calling thread, so that a write to a pipe whose reader has gone fails
/// with EPIPE there instead of killing the process: 0, or an errno.
int lens_block_sigpipe(void);

#endif
