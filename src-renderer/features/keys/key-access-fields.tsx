import { LEASE_SCOPE } from '../../../src-shared/domain/lease';

/** What a new key may do and where: the lease scope and the connections it may use (none ticked = all). */
export interface KeyAccessDraft {
  leases: boolean;
  allowedConnections: string[];
}

export const NO_ACCESS_LIMITS: KeyAccessDraft = { leases: false, allowedConnections: [] };

/** LEASE-3 before sending: a lease key names its connections explicitly. */
export function accessProblem(access: KeyAccessDraft): string | null {
  return access.leases && access.allowedConnections.length === 0
    ? 'A key that holds exclusive leases needs at least one allowed connection.'
    : null;
}

export function KeyAccessFields({
  access,
  connections,
  error,
  onChange,
}: {
  access: KeyAccessDraft;
  connections: readonly string[];
  error: string | null;
  onChange: (access: KeyAccessDraft) => void;
}) {
  const toggle = (name: string, on: boolean): void =>
    onChange({
      ...access,
      // Kept in the connections' order so the list reads the same as the Connections tab.
      allowedConnections: connections.filter((c) => (c === name ? on : access.allowedConnections.includes(c))),
    });
  return (
    <fieldset className="fieldset key-access" aria-describedby={error ? 'key-access-error' : undefined}>
      <legend>Access</legend>
      <div className="toggle-field">
        <input
          id="key-scope-lease"
          type="checkbox"
          checked={access.leases}
          onChange={(e) => onChange({ ...access, leases: e.target.checked })}
        />
        <label htmlFor="key-scope-lease">
          Exclusive leases <code>{LEASE_SCOPE}</code>
        </label>
      </div>
      <p className="field-hint">
        A managed agent with this scope can lease one connection for itself through{' '}
        <code>POST /api/v1/session-leases</code>; other clients are kept off that connection while the lease holds.
      </p>
      {connections.length > 0 && (
        <>
          <p className="field-hint">Allowed connections: tick none to allow every connection.</p>
          <ul className="key-connections">
            {connections.map((name) => (
              <li key={name} className="toggle-field">
                <input
                  id={`key-allow-${name}`}
                  type="checkbox"
                  checked={access.allowedConnections.includes(name)}
                  onChange={(e) => toggle(name, e.target.checked)}
                />
                <label htmlFor={`key-allow-${name}`}>{name}</label>
              </li>
            ))}
          </ul>
        </>
      )}
      {error && (
        <p id="key-access-error" className="field-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
