import { config } from 'zod';

// Imported first by main.tsx, before any module builds a schema: zod decides at schema creation whether
// to compile parsers with `new Function`, and that probe alone trips the page's CSP (a console error).
// The editors validate with the contract's schemas, so the renderer runs zod without JIT.
config({ jitless: true });
