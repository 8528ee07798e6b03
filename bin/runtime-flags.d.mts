// Types of runtime-flags.mjs for the TypeScript that imports it (scripts/bench/launch.ts).
export declare const NODE_RUNTIME_FLAGS: readonly string[];
