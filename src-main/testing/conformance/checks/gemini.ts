/**
 * The Gemini API rows (the Gemini SDK, the Gemini CLI). They are rows of the same table so the
 * checks slot in once the suite's upstream speaks `/v1beta` and the clients are dev dependencies;
 * until then they say why they do not apply and never pass.
 */
import { errorText } from './upstream-facts';
import { wire } from './wire';
import { notApplicable, type Check, type Outcome, type SuiteContext } from './types';

/** Whether the gateway serves `/v1beta` at all: `GET /v1beta/models` with the key as Gemini clients send it. */
function probe(ctx: SuiteContext): Promise<string> {
  return ctx.once('gemini:probe', async () => {
    try {
      const answer = await wire(`${ctx.url}/v1beta/models`, {
        method: 'GET',
        headers: { 'x-goog-api-key': ctx.key },
        timeoutMs: 3000,
      });
      return answer.status === 404
        ? 'the gateway has no /v1beta (GET /v1beta/models → 404)'
        : `the gateway answers /v1beta (GET /v1beta/models → ${answer.status}), but this suite has no Gemini checks yet`;
    } catch (error) {
      return `GET /v1beta/models got no answer (${errorText(error)})`;
    }
  });
}

async function gemini(ctx: SuiteContext): Promise<Outcome> {
  return notApplicable(await probe(ctx));
}

export const geminiChecks: Check[] = [
  { id: 'gemini-sdk', title: 'generateContent / streamGenerateContent', client: 'Gemini SDK', run: gemini },
  { id: 'gemini-cli', title: 'one-shot prompt with a tool call', client: 'Gemini CLI', run: gemini },
];
