/** What every scenario answer shares: the usage it reports, how finely it cuts tool input, when it calls a tool. */
import type { ResponsePlan } from '../../fake-upstream-errors';
import type { RecordedRequest } from '../../fake-upstream-types';
import type { Marker } from './markers';
import { offeredTools } from './tool-inputs';
import type { SentFacts } from './types';

/** Usage every answer reports, distinctive enough that a gateway's own numbers would show. */
export const USAGE = { input: 321, output: 123 } as const;
/** Pieces each tool call's arguments are cut into when streamed. */
export const FRAGMENTS = 24;

export interface Decision {
  plan: ResponsePlan;
  sent: SentFacts;
}

export type Request = RecordedRequest;

/** A tool scenario calls a tool on its first turn, when the request offers any (side requests offer none). */
export function wantsTool(marker: Marker, body: unknown): boolean {
  const toolScenario = marker.scenario === 'tool' || marker.scenario === 'thinking-tool';
  return toolScenario && !marker.followUp && offeredTools(body).length > 0;
}

/** The text of a plain answer: names the scenario and the check. */
export function answerText(marker: Marker): string {
  return `conformance ${marker.scenario} answer ${marker.nonce}`;
}
