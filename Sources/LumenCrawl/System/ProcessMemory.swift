import CKernelCalls

/// The heap of a long-running process (the watcher). glibc gives each thread that contends for
/// the heap an arena of its own, up to eight per core, and keeps what is freed in them: after
/// a burst of extraction on several threads the process stays tens of megabytes larger than it
/// needs. Measured on bench/watch's tree: 104 MB peak with the default arenas, 80 MB with two.
public enum ProcessMemory {
  /// Caps the malloc arenas; call it first thing, before threads allocate.
  public static func limitArenas(_ count: Int32 = 2) {
    _ = lumen_limit_malloc_arenas(count)
  }

  /// Returns freed heap memory to the system.
  public static func trim() {
    lumen_malloc_trim()
  }
}
