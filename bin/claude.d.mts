// Types of claude.mjs for the tests that import it (src-main/install/leeway-bin.test.ts).
type Env = Readonly<Record<string, string | undefined>>;
export declare function findClaude(env: Env, platform?: string): string | null;
export declare function claudeEnv(env: Env, proxyUrl: string, key: string): Record<string, string | undefined>;
export declare function runClaudeCommand(args: string[], env: Env): Promise<number>;
