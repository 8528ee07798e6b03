/**
 * Turns a scripted behaviour into what the fake writes: which plan, paced or cut short, or nothing.
 */
import { defaultErrorMessage, errorPlan, type PlanContext, type ResponsePlan } from './fake-upstream-errors';
import type { Exchange } from './fake-upstream-exchange';
import { okPlan } from './fake-upstream-responses';
import { toolCallPlan } from './fake-upstream-tools';
import type { Behaviour, RecordedRequest } from './fake-upstream-types';
import { anthropicErrorFrame, anthropicEvent, openaiErrorFrame, openaiEvent } from './sse-frames';

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
      return exchange.send(withEchoHeader(okPlan(ctx, record, pathname, behaviour), behaviour.echoKeyHeader, record));
    case 'tool-call':
      return exchange.send(toolCallPlan(ctx, record, pathname, behaviour));
    case 'status': {
      const message = behaviour.echoKey
        ? `Invalid credential: ${credentialOf(record)}`
        : defaultErrorMessage(ctx.format, behaviour.status);
      const plan = errorPlan(ctx, behaviour.status, message, behaviour.body, behaviour.headers);
      return exchange.send(withEchoHeader(plan, behaviour.echoKeyHeader, record));
    }
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
    case 'trickle': {
      const plan = okPlan(ctx, record, pathname, { kind: 'ok' });
      const after = behaviour.after ?? 0;
      const beat =
        behaviour.heartbeat !== 'ping'
          ? ': keep-alive\n\n'
          : ctx.format === 'anthropic'
            ? anthropicEvent('ping', { type: 'ping' })
            : openaiEvent({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: '' } }] });
      const beats = Array.from({ length: behaviour.heartbeats ?? 500 }, () => beat);
      const chunks = [...plan.chunks.slice(0, after), ...beats, ...plan.chunks.slice(after)];
      return exchange.send({ ...plan, chunks }, { intervalMs: behaviour.intervalMs });
    }
    case 'stream-error': {
      const type = behaviour.errorType ?? (ctx.format === 'anthropic' ? 'overloaded_error' : 'server_error');
      const plan = okPlan(ctx, record, pathname, { kind: 'ok' });
      if (!plan.streaming) {
        const status = type === 'overloaded_error' ? 529 : 500;
        return exchange.send(errorPlan(ctx, status, defaultErrorMessage(ctx.format, status)));
      }
      const echo = behaviour.echoKey ? ` (credential ${credentialOf(record)})` : '';
      const frame =
        ctx.format === 'anthropic'
          ? anthropicErrorFrame(type, `Overloaded${echo}`)
          : openaiErrorFrame(type, `The server had an error while processing your request.${echo}`);
      return exchange.send({
        ...plan,
        chunks: [...plan.chunks.slice(0, behaviour.after), frame],
      });
    }
    case 'reset-after-headers':
      return exchange.send(okPlan(ctx, record, pathname, { kind: 'ok' }), { dropAfter: 0, reset: true });
    case 'stall-after-headers': {
      const status = behaviour.status ?? 200;
      const plan =
        status === 200
          ? okPlan(ctx, record, pathname, { kind: 'ok' })
          : errorPlan(ctx, status, defaultErrorMessage(ctx.format, status));
      return exchange.send(plan, { stallAfterHeaders: true });
    }
    case 'malformed-ok':
      return exchange.send(
        malformedPlan(okPlan(ctx, record, pathname, { kind: 'ok' }), behaviour.shape, behaviour.events),
      );
    default: {
      const unreachable: never = behaviour;
      throw new Error(`Unknown behaviour ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The key the request authenticated with (x-api-key or Bearer), for gateways that echo it back. */
/** The plan with one more header carrying the request's credential (a gateway that echoes it). */
function withEchoHeader(plan: ResponsePlan, name: string | undefined, record: RecordedRequest): ResponsePlan {
  return name === undefined ? plan : { ...plan, headers: { ...plan.headers, [name]: credentialOf(record) } };
}

function credentialOf(record: RecordedRequest): string {
  return record.headers['x-api-key'] ?? /^Bearer\s+(.+)$/i.exec(record.headers['authorization'] ?? '')?.[1] ?? '';
}

/** A 200 answer's plan bent into one that ends cleanly but is no usable answer. */
function malformedPlan(
  plan: ResponsePlan,
  shape: 'empty' | 'invalid-json' | 'unterminated',
  events?: number,
): ResponsePlan {
  if (shape === 'empty') return withBody(plan, []);
  if (shape === 'invalid-json' || !plan.streaming) {
    const body = plan.streaming ? '{"id":"msg_cut","type":"mess' : plan.chunks.join('');
    const cut = body.slice(0, Math.floor(body.length / 2));
    return withBody({ ...plan, streaming: false, headers: { ...plan.headers, 'content-type': 'application/json' } }, [
      cut,
    ]);
  }
  return withBody(plan, plan.chunks.slice(0, events ?? plan.chunks.length - 1));
}

/** The same plan with other body chunks; a non-stream plan's content-length follows them. */
function withBody(plan: ResponsePlan, chunks: string[]): ResponsePlan {
  if (plan.streaming) return { ...plan, chunks };
  const length = String(chunks.reduce((n, c) => n + Buffer.byteLength(c), 0));
  return { ...plan, chunks, headers: { ...plan.headers, 'content-length': length } };
}

/** Splits a JSON body in two so a drop after the first chunk leaves a truncated body. */
function halveBody(plan: ResponsePlan): ResponsePlan {
  const body = plan.chunks.join('');
  const middle = Math.floor(body.length / 2);
  return { ...plan, chunks: [body.slice(0, middle), body.slice(middle)] };
}
