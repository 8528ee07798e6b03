// Types of connections-notice.mjs for the tests that import it (src-main/install/leeway-claude.test.ts).
type Env = Readonly<Record<string, string | undefined>>;
export declare function dashboardLink(admin: { url: string; token: string }): string;
export declare function connectionsNotice(options: {
  env: Env;
  dataDir: string;
  proxyUrl: string;
}): Promise<string[] | null>;
