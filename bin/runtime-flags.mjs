// Node flags the headless Leeway runs with (`leeway start`, `npm start` without Electron, and
// `npm run bench`, which measures what users run). V8 lets the young generation shrink to 1 MB
// while traffic is light, so a burst of 70 KB Claude Code bodies outlived it and was promoted,
// and only full mark-compacts freed them: bench rounds of Claude Code-shaped requests cost 1.0 ms
// each instead of 0.6 ms (14 mark-compacts against none). Keeping the young generation at its
// usual 16 MB costs about 20 MB of resident memory under load. Electron reads V8 flags for its
// main process only from its own command line (`--js-flags` at launch), so the desktop shell
// runs with V8's defaults.
export const NODE_RUNTIME_FLAGS = ['--min-semi-space-size=16'];
