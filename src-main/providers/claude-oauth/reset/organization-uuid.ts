import { fetchJsonSafely, isOk, type FetchJson } from './fetch-json';
import { asRecord } from './parse-instant';
import { bootstrapRequest, type ResetEndpoint } from './reset-requests';
import { readResetSettings } from './reset-settings';

/** Where the organisation UUID came from; `bootstrap` tells the caller it is worth persisting. */
export type OrganizationUuidLookup =
  { kind: 'stored'; organizationUuid: string } | { kind: 'bootstrap'; organizationUuid: string } | { kind: 'missing' };

/** Reads `organization_uuid` from the bootstrap body; anything else is "unknown". */
export function parseBootstrapOrganizationUuid(json: unknown): string | null {
  const value = asRecord(json)?.organization_uuid;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * RESET-5: the stored UUID when the connection has one, else one bootstrap call. The core runs this
 * at initialisation and persists a `bootstrap` answer; the attempt falls back to it too.
 */
export async function resolveOrganizationUuid(
  input: ResetEndpoint & { providerSpecificData?: Readonly<Record<string, unknown>>; fetchJson: FetchJson },
): Promise<OrganizationUuidLookup> {
  const stored = readResetSettings(input.providerSpecificData).organizationUuid;
  if (stored !== null) return { kind: 'stored', organizationUuid: stored };
  const answer = await fetchJsonSafely(input.fetchJson, bootstrapRequest(input));
  const fetched = isOk(answer) ? parseBootstrapOrganizationUuid(answer.json) : null;
  return fetched === null ? { kind: 'missing' } : { kind: 'bootstrap', organizationUuid: fetched };
}
