import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src-shared/domain/request-log';
import { logEntry } from './request-log-fixtures.testkit';
import { csvField, csvFilename, describeAttempt, requestLogCsv } from './request-log-csv';

const row = (over: Partial<RequestLogEntry> = {}): RequestLogEntry => ({ id: 1, ...logEntry(), ...over });

/** A small RFC 4180 reader: enough to prove the writer's quoting round-trips. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let field = '';
  let fields: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      fields.push(field);
      rows.push(fields);
      fields = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

describe('activity CSV (issue 13 §3)', () => {
  it('ISSUE-13: fields with commas, quotes and line breaks are quoted and round-trip; plain ones are not', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(429)).toBe('429');
    expect(csvField(false)).toBe('false');
    const tricky = 'model, "quoted"\r\nand more';
    const [header, line] = parseCsv(requestLogCsv([row({ model: tricky })]));
    expect(line?.[header?.indexOf('model') ?? -1]).toBe(tricky);
  });

  it('ISSUE-13: text a spreadsheet would run as a formula gets a leading apostrophe (CSV injection)', () => {
    for (const value of ['=HYPERLINK("http://x")', '+1', '-cmd', '@SUM(A1)', '\tx'])
      expect(csvField(value).replace(/^"/, '').startsWith(`'`)).toBe(true);
    expect(csvField(-5)).toBe('-5');
  });

  it('ISSUE-13: one header line and one CRLF line per row, every column, attempts spelled out', () => {
    const csv = requestLogCsv([
      row({
        id: 7,
        ts: Date.UTC(2025, 0, 2, 3, 4, 5),
        upstreamModel: 'claude-sonnet-4-5',
        attempts: [
          { connection: 'primary', status: 429, reason: 'rate_limited', ms: 12, headers: { 'retry-after': '30' } },
          { connection: 'backup', status: 200, reason: 'served', ms: 80 },
        ],
      }),
      row({
        id: 6,
        keyName: null,
        connection: null,
        status: 401,
        errorCode: 'unauthorized',
        errorMessage: 'Invalid local API key',
      }),
    ]);
    expect(csv.endsWith('\r\n')).toBe(true);
    const [header, first, second] = parseCsv(csv);
    expect(header).toEqual([
      'id',
      'time_utc',
      'key',
      'endpoint',
      'api_format',
      'model',
      'upstream_model',
      'connection',
      'status',
      'error_code',
      'error_message',
      'stream',
      'latency_ms',
      'ttfb_ms',
      'input_tokens',
      'output_tokens',
      'cache_read_tokens',
      'cache_write_tokens',
      'held_ms',
      'translated',
      'served_via',
      'session_pin',
      'attempts',
    ]);
    const cell = (line: string[] | undefined, name: string) => line?.[header?.indexOf(name) ?? -1];
    expect(cell(first, 'time_utc')).toBe('2025-01-02T03:04:05.000Z');
    expect(cell(first, 'upstream_model')).toBe('claude-sonnet-4-5');
    expect(cell(first, 'attempts')).toBe('primary 429 rate_limited 12ms retry-after=30; backup 200 served 80ms');
    expect(cell(second, 'key')).toBe('');
    expect(cell(second, 'status')).toBe('401');
    expect(cell(second, 'error_message')).toBe('Invalid local API key');
    expect(csv.split('\r\n')).toHaveLength(4);
  });

  it('ISSUE-13: an old row without attempts lists its failover hops; an attempt without timing says so', () => {
    expect(describeAttempt({ connection: 'a', status: null, reason: 'timeout' })).toBe('a - timeout');
    const [header, line] = parseCsv(
      requestLogCsv([row({ failover: [{ connection: 'a', status: 503, reason: 'server_error' }] })]),
    );
    expect(line?.[header?.indexOf('attempts') ?? -1]).toBe('a 503 server_error');
  });

  it('ISSUE-13: the file name carries the export time in UTC', () => {
    expect(csvFilename(Date.UTC(2025, 0, 2, 3, 4, 5))).toBe('leeway-activity-20250102-030405.csv');
  });
});
