// The soak's stated memory bound, shared by its short test and its long command.

/** How much the heap (after a forced GC) may grow over a soak: a leak of per-request state exceeds it. */
export const HEAP_BOUND_MB = 16
