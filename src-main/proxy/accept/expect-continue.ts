import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** Requests whose client waits for `100 Continue` before sending its body, until Leeway sends it. */
const awaiting = new WeakSet<IncomingMessage>();

/**
 * Issue 21 §4: without a 'checkContinue' listener Node answers `Expect: 100-continue` with
 * `100 Continue` at once, so a body Leeway will refuse (over the size limit, a wrong key) is sent
 * anyway. With this listener the request goes to the handler as usual and the 100 is sent only
 * when a body is about to be read (`continueBody`); a refusal comes before the body, and Node
 * then closes the connection after it (the client may or may not send the body).
 */
export function installExpectContinue(server: Server): void {
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    awaiting.add(req);
    server.emit('request', req, res);
  });
}

/** Sends the `100 Continue` the client waits for, once; call just before reading the body. */
export function continueBody(req: IncomingMessage, res: ServerResponse): void {
  // The common request has no Expect: one property read.
  if (req.headers.expect === undefined || !awaiting.delete(req)) return;
  res.writeContinue();
}
