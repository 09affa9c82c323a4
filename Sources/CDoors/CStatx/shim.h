#pragma once
// statx(2) is declared by glibc only under _GNU_SOURCE, which Swift's Glibc module is built
// without; the kernel's own header gives the struct and the flags, and the call goes through
// syscall(2). Header-only: nothing to link.
#include <linux/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

// AT_EMPTY_PATH (statx of the descriptor itself) is _GNU_SOURCE-only too; the value is the
// kernel's (include/uapi/linux/fcntl.h).
#define CSTATX_AT_EMPTY_PATH 0x1000

static inline int cstatx(int dirfd, const char *path, int flags, unsigned int mask,
                         struct statx *buffer) {
  return (int)syscall(SYS_statx, dirfd, path, flags, mask, buffer);
}
