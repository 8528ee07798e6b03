/**
 * Reads a V8 .cpuprofile (`node --cpu-prof`) and says where the time went: top functions by self
 * time, and self time grouped by source (Leeway's own files, undici, node internals, natives).
 * Also runnable alone: `node --import tsx scripts/bench/profile-summary.ts FILE.cpuprofile [top]`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { formatGrid } from './report';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** A short, stable name for where a function lives. */
function sourceOf(url: string): string {
  if (url === '') return '(native / VM)';
  if (url.startsWith('node:'))
    return url
      .replace(/^node:internal\//, 'node:')
      .split('/')
      .slice(0, 2)
      .join('/');
  const nm = url.lastIndexOf('/node_modules/');
  if (nm !== -1) return url.slice(nm + '/node_modules/'.length).split('/')[0] ?? url;
  const marker = ['/out/main/', '/src-main/', '/src-shared/', '/main/chunks/'].find((m) => url.includes(m));
  if (marker) return url.slice(url.indexOf(marker) + 1);
  return url.replace(/^file:\/\//, '');
}

function shortUrl(url: string): string {
  if (url === '') return '';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm !== -1) return url.slice(nm + '/node_modules/'.length);
  for (const m of ['/out/main/', '/src-main/', '/src-shared/', '/main/chunks/']) {
    const at = url.indexOf(m);
    if (at !== -1) return url.slice(at + 1);
  }
  return url.replace(/^file:\/\//, '');
}

export interface ProfileSummary {
  text: string;
  /** Sampled milliseconds excluding (idle). */
  busyMs: number;
}

/** Top `top` functions by self time, and self time by source, excluding (idle). */
export function summarizeProfile(file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] ?? 0;
    // timeDeltas[i] is the time since the previous sample; it belongs to the sample before it.
    const delta = profile.timeDeltas[i + 1] ?? 0;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  }
  const byFunction = new Map<string, { name: string; where: string; us: number }>();
  const bySource = new Map<string, number>();
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') continue;
    busyUs += us;
    const name = functionName || '(anonymous)';
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
    const key = `${name}@${where}`;
    const entry = byFunction.get(key) ?? { name, where, us: 0 };
    entry.us += us;
    byFunction.set(key, entry);
    const source = functionName.startsWith('(') ? functionName : sourceOf(url);
    bySource.set(source, (bySource.get(source) ?? 0) + us);
  }
  // Inclusive ("total") time: each sample counts once for every distinct function on its stack.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const keyOf = (node: ProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    return `${functionName || '(anonymous)'}@${url ? `${shortUrl(url)}:${lineNumber + 1}` : ''}`;
  };
  const totalUs = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const leaf = byId.get(id);
    if (!leaf || leaf.callFrame.functionName === '(idle)') continue;
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const node = byId.get(cur);
      if (!node) break;
      const key = keyOf(node);
      if (key.startsWith('(root)') || seen.has(key)) continue;
      seen.add(key);
      totalUs.set(key, (totalUs.get(key) ?? 0) + us);
    }
  }
  // Project code: any script file outside node_modules (built out/, src-main via tsx, or a patched copy).
  const ownKeys = new Set(
    profile.nodes
      .filter((n) => /^(file:\/\/|\/)/.test(n.callFrame.url) && !n.callFrame.url.includes('/node_modules/'))
      .map(keyOf),
  );
  const ownCode = (key: string) => ownKeys.has(key);
  const pct = (us: number) => (busyUs > 0 ? `${((100 * us) / busyUs).toFixed(1)}%` : '—');
  const functions = [...byFunction.values()].sort((a, b) => b.us - a.us).slice(0, top);
  const sources = [...bySource.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15);
  const inclusive = [...totalUs.entries()]
    .filter(([key]) => ownCode(key))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top);
  const text = [
    `busy (non-idle) sampled time: ${(busyUs / 1000).toFixed(0)} ms`,
    '',
    'Top functions by SELF time:',
    formatGrid(
      ['function', 'where', 'self ms', 'self %'],
      functions.map((f) => [f.name, f.where, (f.us / 1000).toFixed(1), pct(f.us)]),
      2,
    ),
    '',
    'SELF time by source:',
    formatGrid(
      ['source', 'self ms', 'self %'],
      sources.map(([source, us]) => [source, (us / 1000).toFixed(1), pct(us)]),
      1,
    ),
    '',
    'Project functions by TOTAL (inclusive) time:',
    formatGrid(
      ['function@where', 'total ms', 'total %'],
      inclusive.map(([key, us]) => [key, (us / 1000).toFixed(1), pct(us)]),
      1,
    ),
  ].join('\n');
  return { text, busyMs: busyUs / 1000 };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: profile-summary.ts FILE.cpuprofile [top]');
    process.exit(2);
  }
  console.log(summarizeProfile(file, Number(process.argv[3] ?? 25)).text);
}
