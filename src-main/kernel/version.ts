/** Leeway's version, reported by /health and app.info; kept in step with package.json by a test. */
export const LEEWAY_VERSION = '0.1.0';
