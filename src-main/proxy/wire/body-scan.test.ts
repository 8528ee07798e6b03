import { describe, expect, it } from 'vitest';
import { bodyForModel, FULL_PARSE_MAX_BYTES, parseModelBody } from '../accept/parse-model-body';
import { budgetOf, findModelValue, replaceModel, scanBody, type StreamField } from './body-scan';

/** Seeded so a failure names its case. */
function rng(seed: number) {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function randomValue(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 2 ? 4 : 7));
  switch (pick) {
    case 0:
      return 'model';
    case 1:
      return `t"e\\\\x\\"t{[,:]}${Math.floor(next() * 100)}`;
    case 2:
      return Math.floor(next() * 1000);
    case 3:
      return null;
    case 4:
      return [randomValue(next, depth + 1), { model: 'inner', k: randomValue(next, depth + 1) }];
    default:
      return { model: 'nested', '"model"': 'quoted-key', x: randomValue(next, depth + 1) };
  }
}

describe('replacing the model without re-serialising the body', () => {
  it('issue 9 perf: only the top-level model value changes; every other byte stays as sent', () => {
    const raw = Buffer.from(
      '{"system":[{"type":"text","text":"say \\"model\\": x"}], "model" : "claude-opus-4-8[1m]","stream":true}',
    );
    const out = replaceModel(raw, 'claude-sonnet-4-5');
    expect(out?.toString()).toBe(
      '{"system":[{"type":"text","text":"say \\"model\\": x"}], "model" : "claude-sonnet-4-5","stream":true}',
    );
  });

  it('issue 9 perf: a repeated key is replaced where JSON.parse reads it (the last), nested and quoted look-alikes are not', () => {
    const raw = Buffer.from('{"model":"a","tools":[{"model":"b"}],"meta":{"model":"c"},"mod\\u0065l":"d"}');
    const out = replaceModel(raw, 'z');
    expect(JSON.parse(out?.toString() ?? '{}')).toEqual({ model: 'z', tools: [{ model: 'b' }], meta: { model: 'c' } });
    expect(out?.toString().startsWith('{"model":"a"')).toBe(true);
  });

  it('issue 9 perf: a body without a top-level string model gives null (the caller re-serialises)', () => {
    expect(findModelValue(Buffer.from('{"messages":[{"model":"x"}]}'))).toBeNull();
    expect(findModelValue(Buffer.from('{"model":42}'))).toBeNull();
  });

  it('issue 9 perf: 500 random bodies agree with JSON.parse after the replacement', () => {
    const next = rng(20261201);
    for (let n = 0; n < 500; n++) {
      const body: Record<string, unknown> = {};
      const keys = 1 + Math.floor(next() * 6);
      for (let k = 0; k < keys; k++) body[`k${k}`] = randomValue(next, 0);
      body.model = `m-${n}\u00e9"\\`;
      const raw = Buffer.from(next() < 0.5 ? JSON.stringify(body) : JSON.stringify(body, null, 2));
      const out = replaceModel(raw, `up-${n}`);
      expect(JSON.parse(out?.toString() ?? 'null'), `case ${n}`).toEqual({ ...body, model: `up-${n}` });
    }
  });

  it('issue 9 perf: the scan reads model and stream exactly as JSON.parse does on 500 random valid bodies', () => {
    const next = rng(7);
    for (let n = 0; n < 500; n++) {
      const body: Record<string, unknown> = {};
      for (let k = 0; k < 1 + Math.floor(next() * 5); k++) body[`k${k}`] = randomValue(next, 0);
      const pick = Math.floor(next() * 5);
      if (pick > 0) body.model = pick === 4 ? 42 : `m${n}\u2028"`;
      const streamPick = Math.floor(next() * 4);
      if (streamPick > 0) body.stream = [true, false, 'true'][streamPick - 1];
      const text = next() < 0.5 ? JSON.stringify(body) : JSON.stringify(body, null, 2);
      const scan = scanBody(Buffer.from(text));
      expect(scan.ok, `case ${n}`).toBe(true);
      if (!scan.ok) continue;
      const parsedModel: unknown = scan.model
        ? JSON.parse(Buffer.from(text).toString('utf8', scan.model.start, scan.model.end))
        : undefined;
      expect(parsedModel, `case ${n}`).toBe(typeof body.model === 'string' ? body.model : undefined);
      expect(scan.stream, `case ${n}`).toBe(
        body.stream === undefined ? 'absent' : typeof body.stream === 'boolean' ? String(body.stream) : 'not_boolean',
      );
    }
  });

  it('issue 9 perf: the scan refuses bodies that are not one whole JSON object', () => {
    for (const bad of [
      '',
      '[]',
      '"x"',
      '{"model":"a"',
      '{"model":"a}',
      '{"a":[1}',
      '{"a":{]}',
      '{"model":"a"} x',
      'x{}',
      '{"a":"\\\\"}x"}',
    ]) {
      expect(scanBody(Buffer.from(bad)).ok, JSON.stringify(bad)).toBe(false);
    }
    expect(scanBody(Buffer.from(' {"model":"a"}\n')).ok).toBe(true);
  });

  it('issue 9 perf: a large body is read by the scan with the same answers as the full parse of a small one', () => {
    const filler = 'x'.repeat(FULL_PARSE_MAX_BYTES);
    const large = Buffer.from(JSON.stringify({ system: filler, model: ' claude-opus-4-8[1m] ', stream: true }));
    const parsed = parseModelBody(large);
    expect(parsed).toMatchObject({ ok: true, value: { model: 'claude-opus-4-8[1m]', stream: true } });
    if (!parsed.ok) return;
    const sent = bodyForModel(large, parsed.value, 'claude-sonnet-4-5');
    expect(JSON.parse(sent.toString())).toEqual({ system: filler, model: 'claude-sonnet-4-5', stream: true });
    expect(parseModelBody(Buffer.from(`{"system":"${filler}","model":"a"`))).toMatchObject({
      ok: false,
      error: { code: 'invalid_json' },
    });
    expect(parseModelBody(Buffer.from(`{"system":"${filler}","model":7}`))).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(parseModelBody(Buffer.from(`{"system":"${filler}","model":"${'m'.repeat(300)}"}`))).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
  });
  it('issue 9 perf / QPIPE-1: the same pass reads the top-level answer budget as JSON.parse sees it, nested look-alikes ignored', () => {
    const next = rng(99);
    const names = ['max_tokens', 'max_completion_tokens', 'max_output_tokens'] as const;
    for (let n = 0; n < 300; n++) {
      const body: Record<string, unknown> = { model: 'm' };
      for (let k = 0; k < 1 + Math.floor(next() * 4); k++) body[`k${k}`] = randomValue(next, 0);
      body.nested = { max_tokens: 7, list: [{ max_output_tokens: 9 }] };
      for (const name of names) {
        const pick = Math.floor(next() * 4);
        if (pick === 1) body[name] = Math.floor(next() * 100_000);
        else if (pick === 2) body[name] = 'many';
        else if (pick === 3) body[name] = null;
      }
      const text = next() < 0.5 ? JSON.stringify(body) : JSON.stringify(body, null, 2);
      const scan = scanBody(Buffer.from(text));
      const numeric = names.map((name) => body[name]).find((v): v is number => typeof v === 'number');
      expect(scan.ok && scan.maxTokens, `case ${n}`).toBe(numeric ?? null);
    }
  });

  it('issue 9 perf / QPIPE-1: parseModelBody carries the budget for small (parsed) and large (scanned) bodies alike', () => {
    const filler = 'x'.repeat(FULL_PARSE_MAX_BYTES);
    const small = parseModelBody(Buffer.from(JSON.stringify({ model: 'a', max_completion_tokens: 512 })));
    const large = parseModelBody(Buffer.from(JSON.stringify({ system: filler, model: 'a', max_tokens: 32_000 })));
    const none = parseModelBody(
      Buffer.from(JSON.stringify({ system: filler, model: 'a', tools: [{ max_tokens: 3 }] })),
    );
    expect(small).toMatchObject({ ok: true, value: { maxTokens: 512 } });
    expect(large).toMatchObject({ ok: true, value: { maxTokens: 32_000 } });
    expect(none).toMatchObject({ ok: true, value: { maxTokens: null } });
  });
});

describe('the body scan notices an empty thinking signature (issue 12, one pass)', () => {
  it('issue 12: finds "signature": "" at any depth, in either spacing, and nothing else', () => {
    const nested = (signature: string) =>
      JSON.stringify({ model: 'm', messages: [{ role: 'assistant', content: [{ type: 'thinking', signature }] }] });
    const scanOf = (text: string) => {
      const scan = scanBody(Buffer.from(text));
      return scan.ok ? scan.emptySignature : null;
    };
    expect(scanOf(nested(''))).toBe(true);
    expect(scanOf(nested('').replace('"signature":""', '"signature" :\n ""'))).toBe(true);
    expect(scanOf(nested('EqQB'))).toBe(false);
    expect(scanOf(JSON.stringify({ model: 'm', messages: [{ content: 'text "signature":"" quoted' }] }))).toBe(false);
    expect(scanOf(JSON.stringify({ model: 'm', meta: { signatures: '' } }))).toBe(false);
  });
});

/** Every kind of JSON value, spelled as a client might, for the value a body ends in. */
const LAST_VALUES = [
  '0',
  '1',
  '12',
  '-1',
  '-0',
  '1.5',
  '1e3',
  '2E-1',
  '123456789012345678',
  'true',
  'false',
  'null',
  '""',
  '"m"',
  '"true"',
  '[]',
  '[1,"]"]',
  '{}',
  '{"stream":true}',
];
const LAST_KEYS = ['model', 'stream', 'max_tokens', 'max_completion_tokens', 'max_output_tokens', 'other'];

/** What the scan must say about a parsed body's stream. */
function streamOf(value: unknown): StreamField {
  if (value === undefined || value === null) return 'absent';
  return typeof value === 'boolean' ? (value ? 'true' : 'false') : 'not_boolean';
}

/** The scan agrees with JSON.parse on one valid body (or, for an invalid one, only never throws). */
function agreesWithParse(text: string, label: string): void {
  const raw = Buffer.from(text);
  const scan = scanBody(raw);
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return;
  }
  expect(scan.ok, label).toBe(true);
  if (!scan.ok) return;
  const model = scan.model
    ? (JSON.parse(raw.toString('utf8', scan.model.start, scan.model.end)) as unknown)
    : undefined;
  expect(model, label).toBe(typeof body.model === 'string' ? body.model : undefined);
  expect(scan.stream, label).toBe(streamOf(body.stream));
  const budget = budgetOf(body.max_tokens) ?? budgetOf(body.max_completion_tokens) ?? budgetOf(body.max_output_tokens);
  expect(scan.maxTokens, label).toBe(budget);
}

describe('issue 21 §3: the scan reads a value at the very end of a body as JSON.parse does, and never throws', () => {
  it('issue 21 §3: every kind of value as the last member, in three spacings, small and past the full-parse limit', () => {
    const pad = `"system":"${'p'.repeat(FULL_PARSE_MAX_BYTES)}",`;
    for (const key of LAST_KEYS)
      for (const value of LAST_VALUES)
        for (const [before, after] of [
          ['', ''],
          [' ', ' '],
          ['\n  ', '\n'],
        ])
          for (const large of [false, true]) {
            const text = `{"model":"m",${large ? pad : ''}"${key}":${before}${value}${after}}`;
            agreesWithParse(text, `${key}: ${value} ${large ? 'large' : 'small'} ${JSON.stringify(before)}`);
          }
  });

  it('issue 21 §3: every prefix of such a body (cut anywhere, mid-literal too) is refused by the scan, never a throw', () => {
    for (const value of LAST_VALUES) {
      const text = `{"model":"m","stream":${value},"max_tokens":${value}}`;
      for (let cut = 0; cut < text.length; cut++) {
        const scan = scanBody(Buffer.from(text.slice(0, cut)));
        expect(scan.ok, `${text} cut at ${cut}`).toBe(false);
      }
    }
  });

  it('issue 21 §3: parseModelBody never throws on 3000 mutated bodies, small and large, and refuses a non-boolean stream alike', () => {
    const next = rng(2121);
    const filler = 'f'.repeat(FULL_PARSE_MAX_BYTES);
    const bytes = ['1', '0', '"', '}', ']', '{', '[', ',', ':', 't', 'n', '-', 'e', '.', ' ', '\\'];
    for (let n = 0; n < 3000; n++) {
      const value = LAST_VALUES[Math.floor(next() * LAST_VALUES.length)] ?? '1';
      const key = LAST_KEYS[Math.floor(next() * LAST_KEYS.length)] ?? 'stream';
      let text = `{"model":"m",${n % 2 === 0 ? `"system":"${filler}",` : ''}"${key}":${value}}`;
      // Cut, or overwrite one byte near the end (where the out-of-bounds read was).
      const at = text.length - 1 - Math.floor(next() * Math.min(12, text.length));
      text =
        next() < 0.5
          ? text.slice(0, at)
          : text.slice(0, at) + (bytes[Math.floor(next() * bytes.length)] ?? '') + text.slice(at + 1);
      const raw = Buffer.from(text);
      expect(() => parseModelBody(raw), text.slice(-40)).not.toThrow();
      const parsed = parseModelBody(raw);
      if (parsed.ok) expect(bodyForModel(raw, parsed.value, 'other-model').length).toBeGreaterThan(0);
    }
    for (const large of [false, true]) {
      const text = `{"model":"m",${large ? `"system":"${filler}",` : ''}"stream":1}`;
      expect(parseModelBody(Buffer.from(text)), large ? 'large' : 'small').toMatchObject({
        ok: false,
        error: { code: 'invalid_input', message: 'stream: must be true or false' },
      });
    }
  });
});
