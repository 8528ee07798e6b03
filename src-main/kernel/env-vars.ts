/**
 * Environment variables as the entry read them once at start (issue 22): every reader below the
 * entries gets this snapshot as a parameter and never reads the environment itself.
 */
export type EnvVars = Readonly<Record<string, string | undefined>>;
