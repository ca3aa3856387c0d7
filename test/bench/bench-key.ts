// The tenant key the benchmark's sandbox accepts (a sandbox key, not a secret).
export const BENCH_TENANT_KEY = 'bench-tenant-key'
