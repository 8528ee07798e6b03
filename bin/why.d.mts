// Types of why.mjs for the tests that import it.
type Env = Readonly<Record<string, string | undefined>>;
export declare function whyLines(admin: { url: string; token: string }, id: string): Promise<string[]>;
export declare function runWhyCommand(args: string[], env: Env): Promise<number>;
