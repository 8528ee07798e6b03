/** Rows that only plain HTTP can see: Claude Code's preconnect `HEAD /`. */
import { errorText } from './upstream-facts';
import { wire } from './wire';
import { fail, pass, type Check, type Outcome, type SuiteContext } from './types';

const HEAD_DEADLINE_MS = 3000;

/**
 * Claude Code sends `HEAD /` to its base URL before its first request (a preconnect whose status it
 * ignores): any complete answer within 3 s and without a body will do; a hang or a reset will not.
 */
async function headRoot(ctx: SuiteContext): Promise<Outcome> {
  try {
    const answer = await wire(`${ctx.url}/`, { method: 'HEAD', timeoutMs: HEAD_DEADLINE_MS });
    if (answer.body !== '') return fail(`${answer.status} with a body (${answer.body.length} B) to a HEAD`);
    return pass(`${answer.status} in ${answer.ms} ms (any status will do)`);
  } catch (error) {
    return fail(`no answer: ${errorText(error)}`);
  }
}

export const httpChecks: Check[] = [{ id: 'head-root', title: 'HEAD / answered', client: 'HTTP', run: headRoot }];
