/** The two pages the server writes itself, before or instead of the built dashboard. */

const page = (title: string, body: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Leeway</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { max-width: 36rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5; }
  code { font-family: ui-monospace, monospace; padding: 0.1rem 0.3rem; border-radius: 4px; background: rgba(127,127,127,0.15); }
</style>
</head>
<body>
<h1>${title}</h1>
${body}
</body>
</html>
`;

/** Shown at `/` without a valid token; deliberately says nothing about the token it expected. */
export function signInPage(): string {
  return page(
    'Open the dashboard link',
    `<p>This dashboard needs the link Leeway printed when it started
(the <code>Dashboard:</code> line, ending in <code>/?token=…</code>). Open that link in this browser.</p>
<p>The token is also in the file <code>admin-token</code> in Leeway's data folder.</p>`,
  );
}

/** Shown at `/` when there is no built renderer to serve. */
export function notBuiltPage(): string {
  return page(
    'Dashboard not built',
    `<p>Leeway is running, but the dashboard has not been built yet.</p>
<p>Run <code>npm run build</code> and restart Leeway. The proxy works meanwhile.</p>`,
  );
}
