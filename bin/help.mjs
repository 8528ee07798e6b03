// The `leeway --help` text. Every flag the headless entry accepts (src-main/cli/parse-args.ts) and
// every environment variable Leeway reads is listed here, one line each; a test derives both lists
// from the source (src-main/install/leeway-bin.test.ts) so this page cannot fall behind.

/** Flags of `leeway start` (and of `npm start --`), as [flag, what it does]. */
export const FLAGS = [
  ['--port N', 'Proxy port; 0 picks a free one (default 7431)'],
  ['--host H', 'Bind address (default 127.0.0.1); a non-loopback one needs --allow-remote'],
  ['--allow-remote', 'Allow binding a non-loopback address (prints a warning)'],
  ['--data-dir D', 'Data directory (default: the app data folder, shared with the desktop app)'],
  ['--config FILE', 'Config file upserted at every start; ${NAME} in its values reads the environment'],
  ['--admin-port N', 'Dashboard and admin API on their own port (default: the proxy port)'],
  ['--log-level L', 'trace|debug|info|warn|error|fatal (default info)'],
  [
    '--shutdown-grace S',
    'Seconds a Ctrl-C or SIGTERM lets requests in flight finish before they are ended (default 10)',
  ],
  ['--headless', 'Accepted for npm start compatibility; leeway always runs headless'],
  ['-h, --help', 'This help'],
];

/** Environment variables, grouped, as [name, what it does]. */
export const ENV_GROUPS = [
  [
    'Start-up (flags win over these)',
    [
      ['LEEWAY_PORT', 'Proxy port (--port)'],
      ['LEEWAY_ADMIN_PORT', 'Dashboard / admin API port (--admin-port)'],
      ['LEEWAY_DATA_DIR', 'Data directory (--data-dir)'],
      ['LEEWAY_CONFIG', 'Config file (--config)'],
      ['LEEWAY_LOG_LEVEL', 'Log level (--log-level)'],
      ['LEEWAY_SHUTDOWN_GRACE', 'Seconds requests in flight may finish on Ctrl-C / SIGTERM (--shutdown-grace)'],
      ['LEEWAY_ADMIN_TOKEN', 'Admin API token, at least 16 characters (default: <data-dir>/admin-token)'],
      [
        'XDG_CONFIG_HOME',
        'Linux: the default data directory is $XDG_CONFIG_HOME/Leeway; also where opencode.json is set up',
      ],
      ['APPDATA', 'Windows: the default data directory is %APPDATA%\\Leeway'],
    ],
  ],
  [
    'leeway claude, leeway conformance',
    [
      ['LEEWAY_KEY', 'Local key for Claude Code or the suite (default: <data-dir>/cli-key, created on first use)'],
      ['PATH', 'The first claude on it runs; else the @anthropic-ai/claude-code installed beside Leeway'],
      ['LEEWAY_FROM_SOURCE', 'Development: 1 runs src-main/headless.ts through tsx instead of the build'],
    ],
  ],
  [
    'Upstream traffic',
    [
      ['HTTPS_PROXY', "Proxy for https upstreams (also https_proxy); a connection's own outbound proxy wins"],
      ['HTTP_PROXY', 'Proxy for http upstreams, and for https ones when HTTPS_PROXY is unset (also http_proxy)'],
      ['NO_PROXY', 'Hosts reached directly (also no_proxy); loopback upstreams are never proxied'],
      ['LEEWAY_MODEL_DISCOVERY', '0 turns off asking upstreams for their model lists (on start, hourly)'],
      ['CLAUDE_CONFIG_DIR', 'Where "Import from Claude Code" reads the login (default ~/.claude)'],
      ['CODEX_HOME', "Where codex's config.toml is set up (default ~/.codex)"],
    ],
  ],
  [
    'Routing and resilience (defaults under the stored settings)',
    [
      ['LEEWAY_EMERGENCY_FALLBACK', '1 tries targets that failed for money (402) only after all others (ROUTE-5)'],
      ['LEEWAY_EGRESS_IP_LOCK_PROVIDERS', 'Providers whose limits follow the egress IP (comma list; off = none)'],
      ['PROVIDER_COOLDOWN_ENABLED', 'true turns on the per-provider failure window gate'],
      [
        'LEEWAY_PROVIDER_BREAKER_OAUTH_FAILURE_THRESHOLD',
        'Window gate, subscriptions: failures in the window that block the provider',
      ],
      [
        'LEEWAY_PROVIDER_BREAKER_OAUTH_FAILURE_WINDOW_MS',
        'Window gate, subscriptions: window the failures are counted in',
      ],
      ['LEEWAY_PROVIDER_BREAKER_OAUTH_COOLDOWN_MS', 'Window gate, subscriptions: how long the provider stays blocked'],
      [
        'LEEWAY_PROVIDER_BREAKER_API_KEY_FAILURE_THRESHOLD',
        'Window gate, API keys: failures in the window that block the provider',
      ],
      [
        'LEEWAY_PROVIDER_BREAKER_API_KEY_FAILURE_WINDOW_MS',
        'Window gate, API keys: window the failures are counted in',
      ],
      ['LEEWAY_PROVIDER_BREAKER_API_KEY_COOLDOWN_MS', 'Window gate, API keys: how long the provider stays blocked'],
      ['LEEWAY_CIRCUIT_BREAKER_OAUTH_THRESHOLD', 'Circuit breaker, subscriptions: failures in a row that open it'],
      ['LEEWAY_CIRCUIT_BREAKER_OAUTH_RESET_MS', 'Circuit breaker, subscriptions: time before a probe'],
      ['LEEWAY_CIRCUIT_BREAKER_API_KEY_THRESHOLD', 'Circuit breaker, API keys: failures in a row that open it'],
      ['LEEWAY_CIRCUIT_BREAKER_API_KEY_RESET_MS', 'Circuit breaker, API keys: time before a probe'],
      ['LEEWAY_CIRCUIT_BREAKER_LOCAL_THRESHOLD', 'Circuit breaker, local servers: failures in a row that open it'],
      ['LEEWAY_CIRCUIT_BREAKER_LOCAL_RESET_MS', 'Circuit breaker, local servers: time before a probe'],
      ['RATE_LIMIT_MAX_WAIT_MS', 'Request queue: longest wait for a slot'],
      ['RATE_LIMIT_EXECUTION_MAX_WAIT_MS', 'Request queue: longest a queued request may run'],
      ['RATE_LIMIT_MAX_QUEUE_DEPTH', 'Request queue: most requests waiting per connection'],
      ['STREAM_THROUGHPUT_WATCHDOG_ENABLED', 'true turns on the slow-stream watchdog'],
      ['STREAM_THROUGHPUT_WATCHDOG_WARMUP_MS', 'Watchdog: grace time before a stream is judged'],
      ['STREAM_THROUGHPUT_WATCHDOG_WINDOW_MS', 'Watchdog: window the throughput is measured over'],
      ['STREAM_THROUGHPUT_WATCHDOG_MIN_BYTES_PER_SECOND', 'Watchdog: slowest useful output allowed'],
      ['STREAM_THROUGHPUT_WATCHDOG_MIN_USEFUL_BYTES', 'Watchdog: useful bytes a window must carry'],
    ],
  ],
  [
    'Quota store',
    [
      ['QUOTA_STORE_DRIVER', 'sqlite (default) or redis'],
      ['QUOTA_STORE_REDIS_URL', 'redis:// or rediss:// URL for the redis driver'],
      ['REDIS_KEY_PREFIX', "Prefix of Leeway's Redis keys (default leeway:)"],
      ['QUOTA_SATURATION_THRESHOLD', 'Pool use (0-1) above which fair share is enforced (default 0.5)'],
      ['QUOTA_SOFT_DEPRIORITIZE_FACTOR', 'Soft over-share penalty factor, 0-1 (default 0.7)'],
      ['QUOTA_CONSUMPTION_RETENTION_DAYS', 'Days of quota counters kept (default 14)'],
    ],
  ],
  ['Desktop app', [['APPIMAGE', 'Set by the AppImage runtime: start at login and updates use the AppImage file']]],
];

/** The full help text; `version` comes from package.json. */
export function helpText(version) {
  const pad = (text, width) => text.padEnd(width);
  const flagWidth = Math.max(...FLAGS.map(([flag]) => flag.length)) + 2;
  // Long breaker names would push every description far right: they just get two spaces.
  const envWidth = 24;
  return [
    `Leeway ${version}: a local LLM proxy that keeps your coding agent going when one account hits a limit.`,
    '',
    'Usage:',
    '  leeway [start] [options]   Run the proxy + web dashboard in this terminal (Ctrl-C stops it)',
    '  leeway claude [args...]    Run Claude Code through Leeway; starts Leeway in the background',
    '                               when none runs on the data directory, and passes args to claude',
    '  leeway conformance [...]   Run the conformance suite (a source checkout): against the Leeway',
    '                               running on the data directory, or --self, or --url/--key for any',
    '                               gateway; conformance --help lists its flags',
    '  leeway why <id|last>       Why a request went where it went: every candidate, skipped or tried',
    '  leeway stop                Stop the Leeway running on the data directory',
    '  leeway --version           Print the version',
    '  leeway --help              This help',
    '',
    'Options (leeway start):',
    ...FLAGS.map(([flag, text]) => `  ${pad(flag, flagWidth)}${text}`),
    '',
    'Environment:',
    ...ENV_GROUPS.flatMap(([title, vars]) => [
      `  ${title}:`,
      ...vars.map(([name, text]) => `    ${pad(name, envWidth - 2)}  ${text}`),
    ]),
    '',
    'In the config file, "${NAME}" (or text containing it) is replaced by the variable NAME; $${ is a literal ${.',
    'leeway claude sets ANTHROPIC_BASE_URL and ANTHROPIC_AUTH_TOKEN for Claude Code and clears ANTHROPIC_API_KEY.',
  ].join('\n');
}
