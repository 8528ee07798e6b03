import { fail, ok } from '../../../src-shared/contract/errors';
import type { ConnectionDraft } from '../../../src-shared/domain/connection';
import { toView } from '../../db/connections-repo';
import { readClaudeCredentials } from '../../providers/claude-oauth/credentials-file';
import type { Handlers } from '../router';
import type { HandlerDeps } from './handler-deps';
import { capabilitiesOf } from '../../kernel/provider-capabilities';

type ClaudeHandlers = Pick<Handlers, 'claude.importCredentials' | 'claude.status'>;

/** Claude subscription connections: import the local login, report usage and lane state. */
export function claudeHandlers(deps: HandlerDeps): ClaudeHandlers {
  return {
    'claude.importCredentials': async ({ name, path, priority }) => {
      const read = await readClaudeCredentials(path === undefined ? { env: deps.env } : { env: deps.env, path });
      if (!read.ok) return fail('not_found', `Could not import Claude Code credentials: ${read.message}`);
      const c = read.value;
      const existing = deps.connections.getByName(name);
      if (existing && !capabilitiesOf(existing.kind).usesOAuth)
        return fail('conflict', `"${name}" is a ${existing.kind} connection; pick another name`);
      const secret = {
        type: 'oauth' as const,
        accessToken: c.accessToken,
        ...(c.refreshToken ? { refreshToken: c.refreshToken } : {}),
        ...(c.expiresAt ? { expiresAt: c.expiresAt } : {}),
      };
      const draft: ConnectionDraft = {
        name,
        kind: 'claude-oauth',
        baseUrl: existing?.baseUrl ?? null,
        secret,
        models: existing?.models ?? [],
        modelAliases: existing?.modelAliases ?? {},
        priority: priority ?? existing?.priority ?? 1,
        enabled: existing?.enabled ?? true,
        maxConcurrent: existing?.maxConcurrent ?? null,
        disableCooling: existing?.disableCooling ?? false,
        providerSpecificData: {
          ...(existing?.providerSpecificData ?? {}),
          scopes: c.scopes,
          subscriptionType: c.subscriptionType,
        },
      };
      const stored = deps.connections.upsert(draft, deps.now());
      // A fresh login is a new credential: it ends needs_reauth and any other terminal state (COOL-10).
      deps.resilience.resetConnection(stored.id, deps.now());
      deps.events.emit('connections.changed', { connections: deps.connections.list().map(toView) });
      return ok(toView(stored));
    },
    'claude.status': () => ok(deps.claudeStatus()),
  };
}
