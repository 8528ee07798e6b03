/** One sample of a Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
const COMMENT = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/;

/**
 * A strict little parser of the Prometheus text format (version 0.0.4), for tests: every line must
 * be a HELP/TYPE comment or a sample, every sample's family must have been typed; throws otherwise.
 */
export function parsePrometheusText(text: string): Sample[] {
  const typed = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const comment = COMMENT.exec(line);
      if (!comment) throw new Error(`bad comment line: ${line}`);
      if (comment[1] === 'TYPE') typed.set(comment[2] ?? '', comment[3] ?? '');
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`bad sample line: ${line}`);
    const [, name = '', rawLabels = '', rawValue = ''] = match;
    const family = name.replace(/_(bucket|sum|count|total)$/, '');
    if (!typed.has(name) && !typed.has(family)) throw new Error(`sample without TYPE: ${line}`);
    const labels: Record<string, string> = {};
    for (const m of rawLabels.matchAll(LABEL)) labels[m[1] ?? ''] = (m[2] ?? '').replace(/\\(.)/g, '$1');
    const value = rawValue === '+Inf' ? Infinity : rawValue === '-Inf' ? -Infinity : Number(rawValue);
    if (Number.isNaN(value) && rawValue !== 'NaN') throw new Error(`bad value: ${line}`);
    samples.push({ name, labels, value });
  }
  return samples;
}

/** The value of the one sample with this name and (at least) these labels; undefined when none. */
export function sampleValue(
  samples: readonly Sample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}
