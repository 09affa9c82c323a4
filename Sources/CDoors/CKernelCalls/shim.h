#pragma once
// The Linux calls the watcher needs that Swift's Glibc module leaves out: variadic ones
// (syscall, ioctl) do not import, and SCHED_IDLE is declared only under _GNU_SOURCE.
// Header-only: nothing to link.
#include <errno.h>
#include <malloc.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

// include/uapi/linux/ioprio.h
#define LUMEN_IOPRIO_WHO_PROCESS 1
#define LUMEN_IOPRIO_CLASS_IDLE 3
#define LUMEN_IOPRIO_CLASS_SHIFT 13
// include/uapi/linux/sched.h
#define LUMEN_SCHED_IDLE 5

/// A thread's I/O into the idle class (ioprio_set(2) on a thread id, 0 for the caller): 0 or
/// -1 with errno. Threads created later inherit it.
static inline int lumen_set_idle_io_priority(int tid) {
  return (int)syscall(SYS_ioprio_set, LUMEN_IOPRIO_WHO_PROCESS, tid,
                      (LUMEN_IOPRIO_CLASS_IDLE << LUMEN_IOPRIO_CLASS_SHIFT) | 0);
}

/// The I/O priority class of a process (0 = this one): ioprio_get(2) >> 13, or -1 with errno.
static inline int lumen_io_priority_class(int pid) {
  int value = (int)syscall(SYS_ioprio_get, LUMEN_IOPRIO_WHO_PROCESS, pid);
  return value < 0 ? value : value >> LUMEN_IOPRIO_CLASS_SHIFT;
}

/// A thread into SCHED_IDLE (sched_setscheduler(2) on a thread id, 0 for the caller): 0 or -1
/// with errno. On Linux the policy is per thread; threads created later inherit it.
static inline int lumen_set_idle_cpu_priority(int tid) {
  struct sched_param parameter = {0};
  return sched_setscheduler(tid, LUMEN_SCHED_IDLE, &parameter);
}

/// A thread's scheduling policy (5 is SCHED_IDLE), or -1 with errno.
static inline int lumen_cpu_policy(int tid) { return sched_getscheduler(tid); }

/// Returns the heap's free memory to the system (glibc keeps freed arenas otherwise).
static inline void lumen_malloc_trim(void) { (void)malloc_trim(0); }

/// The calling thread's id (gettid(2)).
static inline int lumen_thread_id(void) { return (int)syscall(SYS_gettid); }

/// Bytes waiting to be read on a descriptor (FIONREAD), or -1.
static inline int lumen_pending_bytes(int descriptor) {
  int count = 0;
  return ioctl(descriptor, FIONREAD, &count) < 0 ? -1 : count;
}
