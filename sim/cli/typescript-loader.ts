// Node flags that run a TypeScript entry point the way `orchsim` runs (register.js): for the
// test runner's and benchmarks' child processes.
export const TYPESCRIPT_LOADER_FLAGS = ['--import', new URL('./register.js', import.meta.url).href];
