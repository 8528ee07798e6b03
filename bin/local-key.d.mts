// Types of local-key.mjs for the tests that import it (src-main/install/local-key.test.ts).
type Env = Readonly<Record<string, string | undefined>>;
export declare const KEY_FILE: string;
export declare function adminAccess(env: Env, dataDir: string, proxyUrl: string): { url: string; token: string } | null;
export declare function keyWorks(proxyUrl: string, key: string): Promise<boolean>;
export declare function localKey(options: {
  env: Env;
  dataDir: string;
  proxyUrl: string;
  log: (line: string) => void;
}): Promise<string>;
