// Types of entry.mjs for the tests that import it (src-main/install/leeway-bin.test.ts).
export declare const root: string;
export declare class LauncherError extends Error {}
export declare function headlessArgs(env: Readonly<Record<string, string | undefined>>): Promise<string[]>;
