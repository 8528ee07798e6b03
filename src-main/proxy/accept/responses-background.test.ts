import { describe, expect, it } from 'vitest';
import { foregroundBody } from './responses-background';

describe('background Responses requests', () => {
  it('ROUTE-3: background: true is rewritten to run in the foreground; everything else is kept', () => {
    const out = foregroundBody(Buffer.from(JSON.stringify({ model: 'm', input: 'hi', background: true, store: true })));
    expect(out && JSON.parse(out.toString('utf8'))).toEqual({
      model: 'm',
      input: 'hi',
      background: false,
      store: true,
    });
  });

  it('ROUTE-3: a body without background: true is left alone (null: the bytes stay as they are)', () => {
    expect(foregroundBody(Buffer.from('{"model":"m","input":"hi"}'))).toBeNull();
    expect(foregroundBody(Buffer.from('{"model":"m","background":false}'))).toBeNull();
    expect(foregroundBody(Buffer.from('{"model":"m","input":"say \\"background\\""}'))).toBeNull();
    expect(foregroundBody(Buffer.from('{"background": tru'))).toBeNull();
  });
});
