/** Constants the bench and its child processes agree on. */

/** Text deltas in a streamed answer: the "50-event stream". */
export const STREAM_DELTAS = 50;
/** The model every benchmark request names; the Leeway connection lists it explicitly. */
export const MODEL = 'claude-sonnet-4-6';
/** Leeway's local key for the run (config file `keys`). */
export const LOCAL_KEY = 'lw-bench-local-key-0123456789';
/** What direct and floor requests send as x-api-key (the fake accepts any key). */
export const UPSTREAM_KEY = 'sk-ant-bench-upstream-0000';
