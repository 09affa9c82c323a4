#pragma once
// The confinement of extraction workers: a seccomp filter and a Landlock ruleset. Both are
// built from C macros (BPF_STMT, BPF_JUMP) and kernel structs that Swift cannot import or that
// Debian's uapi headers predate (Landlock ABI 4-6 fields), so the two calls live here as small
// static functions. Header-only: nothing to link. Each returns 0 or an errno value and never
// exits, so the worker can report exactly what was and was not applied.
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

// MARK: Landlock (declared here rather than from <linux/landlock.h>, whose Debian 12 copy stops
// at ABI 2; the kernel accepts the longer struct when the fields it does not know are zero).

#define LUMEN_LL_FS_EXECUTE (1ULL << 0)
#define LUMEN_LL_FS_WRITE_FILE (1ULL << 1)
#define LUMEN_LL_FS_READ_FILE (1ULL << 2)
#define LUMEN_LL_FS_READ_DIR (1ULL << 3)
#define LUMEN_LL_FS_REMOVE_DIR (1ULL << 4)
#define LUMEN_LL_FS_REMOVE_FILE (1ULL << 5)
#define LUMEN_LL_FS_MAKE_CHAR (1ULL << 6)
#define LUMEN_LL_FS_MAKE_DIR (1ULL << 7)
#define LUMEN_LL_FS_MAKE_REG (1ULL << 8)
#define LUMEN_LL_FS_MAKE_SOCK (1ULL << 9)
#define LUMEN_LL_FS_MAKE_FIFO (1ULL << 10)
#define LUMEN_LL_FS_MAKE_BLOCK (1ULL << 11)
#define LUMEN_LL_FS_MAKE_SYM (1ULL << 12)
#define LUMEN_LL_FS_REFER (1ULL << 13)    /* ABI 2 */
#define LUMEN_LL_FS_TRUNCATE (1ULL << 14) /* ABI 3 */
#define LUMEN_LL_FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */
#define LUMEN_LL_NET_BIND_TCP (1ULL << 0)    /* ABI 4 */
#define LUMEN_LL_NET_CONNECT_TCP (1ULL << 1) /* ABI 4 */
#define LUMEN_LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6 */
#define LUMEN_LL_SCOPE_SIGNAL (1ULL << 1)               /* ABI 6 */

struct lumen_landlock_ruleset_attr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
};

struct lumen_landlock_path_beneath_attr {
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif

/// The Landlock ABI version the kernel offers (1 and up), or -errno (-ENOSYS: not built in,
/// -EOPNOTSUPP: built in but disabled at boot).
static inline int lumen_landlock_abi(void) {
  long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, 1U /* VERSION */);
  return abi < 0 ? -errno : (int)abi;
}

/// Restricts the calling thread (and the threads it creates later) to reading files and
/// listing folders anywhere: no writing, creating, removing, renaming, truncating or executing
/// files, no device ioctls; from ABI 4 no TCP bind or connect; from ABI 6 no signals to
/// processes outside the sandbox and no abstract Unix sockets. Needs no_new_privs first.
static inline int lumen_landlock_read_only(int abi) {
  uint64_t fs = LUMEN_LL_FS_EXECUTE | LUMEN_LL_FS_WRITE_FILE | LUMEN_LL_FS_READ_FILE |
                LUMEN_LL_FS_READ_DIR | LUMEN_LL_FS_REMOVE_DIR | LUMEN_LL_FS_REMOVE_FILE |
                LUMEN_LL_FS_MAKE_CHAR | LUMEN_LL_FS_MAKE_DIR | LUMEN_LL_FS_MAKE_REG |
                LUMEN_LL_FS_MAKE_SOCK | LUMEN_LL_FS_MAKE_FIFO | LUMEN_LL_FS_MAKE_BLOCK |
                LUMEN_LL_FS_MAKE_SYM;
  if (abi >= 2) fs |= LUMEN_LL_FS_REFER;
  if (abi >= 3) fs |= LUMEN_LL_FS_TRUNCATE;
  if (abi >= 5) fs |= LUMEN_LL_FS_IOCTL_DEV;
  struct lumen_landlock_ruleset_attr attr = {0, 0, 0};
  attr.handled_access_fs = fs;
  size_t size = sizeof(uint64_t);
  if (abi >= 4) {
    attr.handled_access_net = LUMEN_LL_NET_BIND_TCP | LUMEN_LL_NET_CONNECT_TCP;
    size = 2 * sizeof(uint64_t);
  }
  if (abi >= 6) {
    attr.scoped = LUMEN_LL_SCOPE_ABSTRACT_UNIX_SOCKET | LUMEN_LL_SCOPE_SIGNAL;
    size = 3 * sizeof(uint64_t);
  }
  int ruleset = (int)syscall(__NR_landlock_create_ruleset, &attr, size, 0U);
  if (ruleset < 0) return errno;
  int root = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root < 0) {
    int saved = errno;
    close(ruleset);
    return saved;
  }
  struct lumen_landlock_path_beneath_attr beneath = {
      LUMEN_LL_FS_READ_FILE | LUMEN_LL_FS_READ_DIR, root};
  long added = syscall(__NR_landlock_add_rule, ruleset, 1 /* PATH_BENEATH */, &beneath, 0U);
  int saved = added < 0 ? errno : 0;
  close(root);
  if (saved == 0 && syscall(__NR_landlock_restrict_self, ruleset, 0U) < 0) saved = errno;
  close(ruleset);
  return saved;
}

// MARK: seccomp

#if defined(__x86_64__)
#define LUMEN_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define LUMEN_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LUMEN_ARG_LOW(n) (offsetof(struct seccomp_data, args) + 8 * (n))
#else
#define LUMEN_ARG_LOW(n) (offsetof(struct seccomp_data, args) + 8 * (n) + 4)
#endif

/// Sets no_new_privs (so neither this process nor anything it could exec gains privileges).
static inline int lumen_no_new_privs(void) {
  return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 ? 0 : errno;
}

/// Installs a seccomp filter on every thread of the process: sockets and network calls fail
/// with EPERM; opening a file for writing (O_WRONLY, O_RDWR, O_CREAT, O_TRUNC) fails with
/// EACCES, as do the calls that change the file system by path (unlink, rename, mkdir, chmod,
/// chown, link, truncate, xattrs, times); exec, ptrace, mounts, namespaces, modules, BPF,
/// io_uring (which would bypass this filter) and other privileged calls fail with EPERM; a
/// call from a foreign architecture kills the process. Everything else is allowed: reading,
/// mapping memory, threads, writing to descriptors already open (the worker's pipes).
static inline int lumen_seccomp_confine(void) {
#ifndef LUMEN_AUDIT_ARCH
  return ENOSYS;
#else
  static const int denied_eperm[] = {
      SYS_socket, SYS_socketpair, SYS_connect, SYS_bind, SYS_listen, SYS_accept, SYS_accept4,
      SYS_sendto, SYS_sendmsg, SYS_sendmmsg, SYS_recvfrom, SYS_recvmsg, SYS_recvmmsg,
      SYS_getsockopt, SYS_setsockopt, SYS_getpeername, SYS_getsockname, SYS_shutdown,
      SYS_execve, SYS_execveat, SYS_ptrace, SYS_process_vm_readv, SYS_process_vm_writev,
      SYS_mount, SYS_umount2, SYS_pivot_root, SYS_chroot, SYS_unshare, SYS_setns,
      SYS_swapon, SYS_swapoff, SYS_reboot, SYS_kexec_load, SYS_init_module,
      SYS_finit_module, SYS_delete_module, SYS_bpf, SYS_perf_event_open, SYS_keyctl,
      SYS_add_key, SYS_request_key, SYS_userfaultfd, SYS_open_by_handle_at,
      SYS_name_to_handle_at, SYS_fanotify_init, SYS_io_uring_setup, SYS_io_uring_enter,
      SYS_io_uring_register,
#ifdef SYS_kexec_file_load
      SYS_kexec_file_load,
#endif
  };
  static const int denied_eacces[] = {
      SYS_unlinkat, SYS_renameat2, SYS_mkdirat, SYS_linkat, SYS_symlinkat, SYS_mknodat,
      SYS_fchmod, SYS_fchmodat, SYS_fchown, SYS_fchownat, SYS_truncate, SYS_ftruncate,
      SYS_setxattr, SYS_lsetxattr, SYS_fsetxattr, SYS_removexattr, SYS_lremovexattr,
      SYS_fremovexattr, SYS_utimensat, SYS_fallocate,
#ifdef SYS_unlink
      SYS_unlink, SYS_rmdir, SYS_rename, SYS_renameat, SYS_mkdir, SYS_link, SYS_symlink,
      SYS_mknod, SYS_chmod, SYS_chown, SYS_lchown, SYS_creat, SYS_utime, SYS_utimes,
      SYS_futimesat,
#endif
  };
  enum { deny_count = sizeof(denied_eperm) / sizeof(int) + sizeof(denied_eacces) / sizeof(int) };
  struct sock_filter program[8 + 2 * deny_count + 12];
  unsigned n = 0;
  program[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                              offsetof(struct seccomp_data, arch));
  program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, LUMEN_AUDIT_ARCH, 1, 0);
  program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  program[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                              offsetof(struct seccomp_data, nr));
#if defined(__x86_64__)
  // x32 system calls reach the same kernel code under other numbers.
  program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1);
  program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
#endif
  for (unsigned i = 0; i < sizeof(denied_eperm) / sizeof(int); i++) {
    program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
                                                (unsigned)denied_eperm[i], 0, 1);
    program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
  }
  for (unsigned i = 0; i < sizeof(denied_eacces) / sizeof(int); i++) {
    program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
                                                (unsigned)denied_eacces[i], 0, 1);
    program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES);
  }
  // openat2 passes its flags in a struct the filter cannot read: refuse it as unknown, and
  // glibc's open() does not use it.
  program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1);
  program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
  const unsigned writing = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC;
#ifdef SYS_open
  program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_open, 0, 4);
  program[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, LUMEN_ARG_LOW(1));
  program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, writing, 0, 1);
  program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES);
  program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
#endif
  program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 0, 4);
  program[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, LUMEN_ARG_LOW(2));
  program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, writing, 0, 1);
  program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES);
  program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);

  struct sock_fprog fprog = {(unsigned short)n, program};
  if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &fprog) != 0)
    return errno;
  return 0;
#endif
}

// MARK: Worker process helpers that Swift's Glibc module does not declare.

#include <malloc.h>
#include <spawn.h>

/// glibc 2.34+: close every descriptor from `from` up in the child, so a worker inherits
/// nothing of the indexer's (its database, other workers' pipes) but its own three pipes.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/// Returns freed heap memory to the kernel (glibc), so a worker starts each file near its
/// measured baseline.
static inline void lumen_release_free_memory(void) { malloc_trim(0); }
