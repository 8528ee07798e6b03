/** Headroom's version, reported by /health and app.info; kept in step with package.json by a test. */
export const HEADROOM_VERSION = '0.1.0';
