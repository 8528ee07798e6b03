// Types of conformance.mjs for the tests that import it (src-main/install/leeway-bin.test.ts).
type Env = Readonly<Record<string, string | undefined>>;
export declare const SUITE: string;
export declare function namesGateway(args: string[]): boolean;
export declare function runConformanceCommand(args: string[], env: Env): Promise<number>;
