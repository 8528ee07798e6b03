// Types of instance.mjs for the tests that import it (src-main/install/leeway-bin.test.ts).
type Env = Readonly<Record<string, string | undefined>>;
export declare function dataDirOf(env: Env, platform?: string, home?: string): string;
export declare function runningOn(dataDir: string): { pid: number; port: number | null } | null;
export declare function answersHealth(port: number): Promise<boolean>;
