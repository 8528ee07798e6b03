/** What a connection's `providerSpecificData` says about the reset. */
export interface ResetSettings {
  autoLimitReset: boolean;
  organizationUuid: string | null;
}

function nonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * RESET-1/RESET-5: only the literal boolean `true` opts in (a string "true" does not), and the
 * organisation UUID is read from `organizationUUID`, else the snake_case `organization_uuid`.
 */
export function readResetSettings(providerSpecificData: Readonly<Record<string, unknown>> | undefined): ResetSettings {
  const data = providerSpecificData ?? {};
  return {
    autoLimitReset: data.autoLimitReset === true,
    organizationUuid: nonEmpty(data.organizationUUID) ?? nonEmpty(data.organization_uuid),
  };
}
