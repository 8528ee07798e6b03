import { describe, expect, it } from 'vitest';
import { findModelValue, replaceModel } from './replace-model';

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
});
