import { describe, expect, it } from 'vitest';
import { entry } from './observability-fixtures.testkit';
import { failedHops, requestLine } from './request-line';
import { formatTerminalLine } from './terminal-line';

describe('the per-request line', () => {
  it('ISSUE-13: key, model → connection, status, time and tokens on one line', () => {
    expect(requestLine(entry())).toBe('claude-code  main → backup  200  812 ms  1200 in/340 out');
  });

  it('ISSUE-13: the failover path names each attempt with its status and reason, ending at the one that served', () => {
    const line = requestLine(
      entry({
        failover: [
          { connection: 'primary', status: 429, reason: 'rate_limited' },
          { connection: 'second', status: null, reason: 'timeout' },
        ],
      }),
    );
    expect(line).toContain('failover primary 429 rate_limited → second - timeout → backup');
  });

  it('ISSUE-13: held, translated, served-via and pin marks appear only when set; errors show their code', () => {
    const line = requestLine(
      entry({
        heldMs: 1_234,
        translated: 'anthropic->openai',
        servedVia: 'limit-reset',
        sessionPin: 'kept',
        latencyMs: 12_345,
      }),
    );
    expect(line).toBe(
      'claude-code  main → backup  200  12.3 s  1200 in/340 out  held 1234 ms  translated anthropic->openai  via limit-reset  pin kept',
    );
    const refused = requestLine(
      entry({
        keyName: null,
        connection: null,
        status: 429,
        errorCode: 'quota_exceeded',
        inputTokens: null,
        outputTokens: null,
      }),
    );
    expect(refused).toBe('-  main → -  429 quota_exceeded  812 ms');
  });

  it('ISSUE-13: an answering attempt listed last among the hops is not a failover', () => {
    const e = entry({
      failover: [
        { connection: 'primary', status: 500, reason: 'server_error' },
        { connection: 'backup', status: 200, reason: 'served' },
      ],
    });
    expect(failedHops(e)).toEqual([{ connection: 'primary', status: 500, reason: 'server_error' }]);
    expect(requestLine(e)).toContain('failover primary 500 server_error → backup');
  });

  it('ISSUE-13: the terminal shows local time, a level tag unless info, and the message', () => {
    const at = new Date(2026, 0, 2, 3, 4, 5, 67).getTime();
    expect(formatTerminalLine(`{"level":30,"time":${at},"msg":"hello"}\n`)).toBe('03:04:05.067 hello\n');
    expect(formatTerminalLine(`{"level":40,"time":${at},"msg":"careful"}`)).toBe('03:04:05.067 WARN careful\n');
    expect(formatTerminalLine('not json')).toBe('not json\n');
    // A message with quotes, escapes and a field that looks like msg still reads right.
    const line = `${JSON.stringify({ level: 50, time: at, note: ',"msg":"fake"', msg: 'say "hi"\\n' })}\n`;
    expect(formatTerminalLine(line)).toBe('03:04:05.067 ERROR say "hi"\\n\n');
    expect(formatTerminalLine(JSON.stringify({ time: at, level: 30, msg: 'other order' }))).toBe(
      '03:04:05.067 other order\n',
    );
  });

  it('ISSUE-13: a message without escapes is read as it stands; one with a control character or escape is parsed', () => {
    const at = new Date(2026, 0, 2, 3, 4, 5, 67).getTime();
    expect(formatTerminalLine(`{"level":30,"time":${at},"msg":""}\n`)).toBe('03:04:05.067 \n');
    expect(formatTerminalLine(`{"level":30,"time":${at},"event":"request","msg":"k  m → zürich  200"}\n`)).toBe(
      '03:04:05.067 k  m → zürich  200\n',
    );
    expect(formatTerminalLine(`${JSON.stringify({ level: 40, time: at, msg: 'tab\there \u0001' })}\n`)).toBe(
      '03:04:05.067 WARN tab\there \u0001\n',
    );
    // Not valid JSON (a raw control character): shown as the line it is, as before.
    expect(formatTerminalLine(`{"level":30,"time":${at},"msg":"a\u0001b"}`)).toBe(
      `{"level":30,"time":${at},"msg":"a\u0001b"}\n`,
    );
  });
});
