/**
 * Turns a scripted behaviour into what the fake writes: which plan, paced or cut short, or nothing.
 */
import { defaultErrorMessage, errorPlan, type PlanContext, type ResponsePlan } from './fake-upstream-errors';
import type { Exchange } from './fake-upstream-exchange';
import { okPlan } from './fake-upstream-responses';
import type { Behaviour, RecordedRequest } from './fake-upstream-types';
import { anthropicErrorFrame, openaiErrorFrame } from './sse-frames';

/** Runs one scripted behaviour for a request that passed routing and auth. */
export async function perform(
  exchange: Exchange,
  ctx: PlanContext,
  record: RecordedRequest,
  pathname: string,
  behaviour: Behaviour,
): Promise<void> {
  switch (behaviour.kind) {
    case 'ok':
      return exchange.send(okPlan(ctx, record, pathname, behaviour));
    case 'status':
      return exchange.send(
        errorPlan(
          ctx,
          behaviour.status,
          defaultErrorMessage(ctx.format, behaviour.status),
          behaviour.body,
          behaviour.headers,
        ),
      );
    case 'delay':
      if (!(await exchange.wait(behaviour.ms))) return;
      return perform(exchange, ctx, record, pathname, behaviour.then ?? { kind: 'ok' });
    case 'hang':
      // Never answer; the exchange ends when the client leaves or the fake closes its sockets.
      return;
    case 'stream-then-drop': {
      const plan = okPlan(ctx, record, pathname, { kind: 'ok' });
      if (plan.streaming) return exchange.send(plan, { dropAfter: behaviour.events });
      return exchange.send(halveBody(plan), { dropAfter: 1 });
    }
    case 'slow-stream': {
      const deltas = behaviour.deltas ?? 50;
      const text = Array.from({ length: deltas }, (_, i) => `t${i} `).join('');
      const plan = okPlan(ctx, record, pathname, { kind: 'ok', text, deltas });
      return exchange.send(plan, { intervalMs: behaviour.intervalMs });
    }
    case 'stream-error': {
      const type = behaviour.errorType ?? (ctx.format === 'anthropic' ? 'overloaded_error' : 'server_error');
      const plan = okPlan(ctx, record, pathname, { kind: 'ok' });
      if (!plan.streaming) {
        const status = type === 'overloaded_error' ? 529 : 500;
        return exchange.send(errorPlan(ctx, status, defaultErrorMessage(ctx.format, status)));
      }
      const frame =
        ctx.format === 'anthropic'
          ? anthropicErrorFrame(type, 'Overloaded')
          : openaiErrorFrame(type, 'The server had an error while processing your request.');
      return exchange.send({
        ...plan,
        chunks: [...plan.chunks.slice(0, behaviour.after), frame],
      });
    }
    default: {
      const unreachable: never = behaviour;
      throw new Error(`Unknown behaviour ${JSON.stringify(unreachable)}`);
    }
  }
}

/** Splits a JSON body in two so a drop after the first chunk leaves a truncated body. */
function halveBody(plan: ResponsePlan): ResponsePlan {
  const body = plan.chunks.join('');
  const middle = Math.floor(body.length / 2);
  return { ...plan, chunks: [body.slice(0, middle), body.slice(middle)] };
}
