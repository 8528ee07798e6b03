// The launchers (`npm start` → scripts/start.mjs, `leeway start` → bin/leeway.mjs) run Leeway as a
// child and must hand it each stop signal exactly once (issue 21 §9). A terminal's Ctrl-C goes to
// the whole foreground process group, so a child in the launcher's group got it already, and a
// launcher that also forwarded it made the child see "SIGINT received again" and exit at once.
// Ignoring SIGINT instead would lose a `kill -INT <launcher>` meant for the child, and the launcher
// cannot tell the two apart (Node gives no sender pid). So on POSIX the child runs in its own
// process group (detached): the terminal reaches only the launcher, and the launcher passes on
// every signal it receives — one per Ctrl-C, one per kill. When npm runs the launcher through a
// shell that execs it (bash does), npm forwards the SIGINT it got from the same Ctrl-C a moment
// later: a repeat of the same signal within SAME_SIGNAL_MS is that echo and is not passed on.
// A detached child would outlive a launcher killed with SIGKILL, so a Node child gets an IPC
// channel and stops when it closes (src-main/headless.ts). Ctrl-Z stops both, `fg` resumes both.
// On Windows a console Ctrl-C reaches every process attached to the console; detaching there would
// open a new console, so the child stays attached and the launcher leaves SIGINT to it.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/** Two deliveries of one signal closer than this are one event (a terminal's and npm's copy of a Ctrl-C). */
export const SAME_SIGNAL_MS = 500;
const PASSED_ON = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The exit code a shell gives a process a signal ended: 128 + its number. */
export function exitCodeOf(code, signal) {
  if (code !== null) return code;
  return signal ? 128 + (constants.signals[signal] ?? 0) : 1;
}

/**
 * Spawns `command args` with the launcher's stdio and passes on the stop signals the launcher gets,
 * once each. `lifeline`: a Node child that stops when the launcher dies (an IPC channel it watches).
 */
export function spawnSupervised(command, args, options = {}) {
  const posix = process.platform !== 'win32';
  const stdio = options.lifeline && posix ? ['inherit', 'inherit', 'inherit', 'ipc'] : 'inherit';
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio, detached: posix });
  const lastAt = new Map();
  const running = () => child.exitCode === null && child.signalCode === null;
  const pass = (signal) => {
    const at = Date.now();
    const previous = lastAt.get(signal);
    lastAt.set(signal, at);
    if (previous !== undefined && at - previous < SAME_SIGNAL_MS) return;
    if (!running()) process.exit(exitCodeOf(null, signal));
    // Windows: the console's Ctrl-C reached the child already.
    if (!posix && signal === 'SIGINT') return;
    child.kill(signal);
  };
  const handlers = new Map(PASSED_ON.map((signal) => [signal, () => pass(signal)]));
  if (posix) {
    // Job control: the terminal stops only the launcher's group, so stop the child too, then ourselves.
    handlers.set('SIGTSTP', () => {
      if (running()) child.kill('SIGSTOP');
      process.kill(process.pid, 'SIGSTOP');
    });
    handlers.set('SIGCONT', () => {
      if (running()) child.kill('SIGCONT');
    });
  }
  for (const [signal, handler] of handlers) process.on(signal, handler);
  // Once the child is gone (or never started) the launcher's signals are its own again (a fallback may spawn another).
  const release = () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
  child.once('exit', release);
  child.once('error', release);
  // The IPC channel is only a lifeline: it must not keep the launcher alive or carry messages.
  child.channel?.unref();
  return child;
}
