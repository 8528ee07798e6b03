// Types of help.mjs for the tests that import it (src-main/install/leeway-bin.test.ts).
export declare const FLAGS: ReadonlyArray<readonly [string, string]>;
export declare const ENV_GROUPS: ReadonlyArray<readonly [string, ReadonlyArray<readonly [string, string]>]>;
export declare function helpText(version: string): string;
