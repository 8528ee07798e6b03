import type { Result } from '../../src-shared/contract/errors';
import type { QuotaPoolsRepo } from '../quota/quota-ports';
import type { CombosRepo } from './combos-repo';
import type { ConnectionsRepo } from './connections-repo';
import type { KeysRepo } from './keys-repo';
import type { RoutesRepo } from './routes-repo';
import type { StorageChange, StorageChanges } from './storage-changes';

/** Wraps one write: after it returns and `changed` says rows moved, `topic` is announced. */
function telling<A extends unknown[], R>(
  changes: StorageChanges,
  topic: StorageChange,
  write: (...args: A) => R,
  changed: (result: R) => boolean,
) {
  return (...args: A): R => {
    const result = write(...args);
    if (changed(result)) changes.emit(topic);
    return result;
  };
}

const always = (): boolean => true;
const truthy = (result: boolean): boolean => result;
const found = (result: unknown): boolean => result !== null;
const some = (count: number): boolean => count > 0;
const succeeded = (result: Result<unknown>): boolean => result.ok;

/**
 * The repositories the catalog and the quota index are built from, as the rest of Leeway sees them
 * (issue 22): every write that changed rows announces its topic. Reads pass through untouched, and
 * a key's last use (`touch`, on the request path) announces nothing.
 */
export function announceConnections(repo: ConnectionsRepo, changes: StorageChanges): ConnectionsRepo {
  const tell = <A extends unknown[], R>(write: (...args: A) => R, changed: (result: R) => boolean) =>
    telling(changes, 'connections', write, changed);
  return {
    ...repo,
    upsert: tell(repo.upsert, always),
    remove: tell(repo.remove, truthy),
    rename: tell(repo.rename, found),
    setSecret: tell(repo.setSecret, truthy),
    mergeProviderData: tell(repo.mergeProviderData, truthy),
    recordEgressIp: tell(repo.recordEgressIp, truthy),
  };
}

export function announceCombos(repo: CombosRepo, changes: StorageChanges): CombosRepo {
  const tell = <A extends unknown[], R>(write: (...args: A) => R, changed: (result: R) => boolean) =>
    telling(changes, 'combos', write, changed);
  return {
    ...repo,
    upsert: tell(repo.upsert, always),
    remove: tell(repo.remove, truthy),
    rename: tell(repo.rename, found),
    renameConnection: tell(repo.renameConnection, some),
  };
}

export function announceRoutes(repo: RoutesRepo, changes: StorageChanges): RoutesRepo {
  return { ...repo, replace: telling(changes, 'routes', repo.replace, always) };
}

export function announceKeys(repo: KeysRepo, changes: StorageChanges): KeysRepo {
  const tell = <A extends unknown[], R>(write: (...args: A) => R, changed: (result: R) => boolean) =>
    telling(changes, 'keys', write, changed);
  return {
    ...repo,
    create: tell(repo.create, succeeded),
    upsertByName: tell(repo.upsertByName, succeeded),
    rename: tell(repo.rename, succeeded),
    renameAllowedConnection: tell(repo.renameAllowedConnection, some),
    setAccess: tell(repo.setAccess, succeeded),
    revoke: tell(repo.revoke, truthy),
  };
}

export function announceQuotaPools(repo: QuotaPoolsRepo, changes: StorageChanges): QuotaPoolsRepo {
  const tell = <A extends unknown[], R>(write: (...args: A) => R, changed: (result: R) => boolean) =>
    telling(changes, 'quotaPools', write, changed);
  return {
    ...repo,
    upsert: tell(repo.upsert, succeeded),
    remove: tell(repo.remove, truthy),
    setPlan: tell(repo.setPlan, always),
    removePlan: tell(repo.removePlan, truthy),
  };
}
