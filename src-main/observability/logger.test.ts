import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogLevel } from './log-level';
import { createLeewayLogger } from './logger';
import { LOG_FILE_NAME } from './rotating-file';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setUp(level?: LogLevel) {
  const terminal: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'leeway-logger-'));
  dirs.push(dir);
  const log = createLeewayLogger({
    terminal: (line) => terminal.push(line),
    redact: (line) => line.replaceAll('sk-live-secret', '[redacted]'),
    now: () => new Date(2026, 0, 1, 12, 0, 0, 5).getTime(),
    ...(level ? { level } : {}),
  });
  log.attachFile(dir);
  const fileLines = async () => {
    await log.flush();
    return readFileSync(join(dir, LOG_FILE_NAME), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  };
  return { log, terminal, fileLines };
}

describe('the Leeway logger', () => {
  it('ISSUE-13: one line goes human-readable to the terminal and as JSON to the file', async () => {
    const { log, terminal, fileLines } = setUp();
    log.logger.info({ event: 'request', connection: 'backup' }, 'claude-code  main → backup  200');
    expect(terminal).toEqual(['12:00:00.005 claude-code  main → backup  200']);
    expect(await fileLines()).toEqual([
      {
        level: 30,
        time: new Date(2026, 0, 1, 12, 0, 0, 5).getTime(),
        event: 'request',
        connection: 'backup',
        msg: 'claude-code  main → backup  200',
      },
    ]);
  });

  it('ISSUE-13: the level filters both outputs (warn hides info); warnings carry a tag in the terminal', async () => {
    const { log, terminal, fileLines } = setUp('warn');
    log.logger.info('a request line');
    log.logger.warn('cooldown set: primary');
    expect(terminal).toEqual(['12:00:00.005 WARN cooldown set: primary']);
    expect((await fileLines()).map((l) => l.msg)).toEqual(['cooldown set: primary']);
  });

  it('ISSUE-13: secrets are removed by the line redactor and by field name before either output', async () => {
    const { log, terminal, fileLines } = setUp();
    log.logger.warn(
      { apiKey: 'anything', authorization: 'Basic x', detail: { quoted: 'sk-live-secret' } },
      'upstream said sk-live-secret',
    );
    expect(terminal.join('\n')).not.toContain('sk-live-secret');
    const [line] = await fileLines();
    expect(line).toMatchObject({
      apiKey: '[redacted]',
      authorization: '[redacted]',
      detail: { quoted: '[redacted]' },
      msg: 'upstream said [redacted]',
    });
  });

  it('ISSUE-13: after flush the file is detached; later lines reach only the terminal', async () => {
    const { log, terminal, fileLines } = setUp();
    log.logger.info('before');
    expect(await fileLines()).toHaveLength(1);
    log.logger.info('after');
    expect(await fileLines()).toHaveLength(1);
    expect(terminal).toHaveLength(2);
  });
});
