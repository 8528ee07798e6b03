import type { CoreEvent, EventName } from '../../../src-shared/contract/events';
import type { ClaudeConnectionStatus } from '../../../src-shared/domain/claude';
import type { ConnectionView } from '../../../src-shared/domain/connection';
import type { QuotaPoolUsage } from '../../../src-shared/domain/quota';
import type { HeldRequestView } from '../../../src-shared/domain/held';
import { callContract, type ContractRouter } from '../contract-call';
import { claudeConnections } from './claude-items';
import { withoutDisabled } from './cooling-items';
import { saturatedPools, type TrayQuotaItem } from './quota-items';
import { createThrottle, systemClock, type Clock } from './throttle';
import type { LoginItem } from './tray-actions';
import { buildTrayTemplate, hasCountdown, trayTooltip, type TrayMenuItem, type TrayModel } from './tray-template';
import { trayState, type TrayState } from './tray-state';

/** What the Electron glue draws: the icon's state, its tooltip and the menu. */
export interface TrayView {
  state: TrayState;
  tooltip: string;
  template: TrayMenuItem[];
}

export interface TrayPresenterDeps {
  router: ContractRouter;
  subscribe(listener: (event: CoreEvent) => void): () => void;
  loginItem: Pick<LoginItem, 'supported' | 'get'>;
  render(view: TrayView): void;
  clock?: Clock;
  /** Least time between two redraws caused by core events (a request storm is one redraw a second). */
  throttleMs?: number;
  /** Countdown step while something is cooling or a Claude reset counts down. */
  tickMs?: number;
  /** Least time between two reads of the quota pools' usage; also the re-read step while a pool line shows. */
  quotaRefreshMs?: number;
  log?: (line: string) => void;
}

export interface TrayPresenter {
  start(): Promise<void>;
  /** Redraws now from what is known (after a change no event reports). */
  redraw(): void;
  stop(): void;
  view(): TrayView | null;
}

/** Events whose payload does not carry what the tray shows: ask the contract again. */
const REFETCH_ON: ReadonlySet<EventName> = new Set<EventName>([
  'activity.request',
  'connections.changed',
  'combos.changed',
  'settings.changed',
]);

/**
 * Keeps the tray current without Electron: reads the model through the contract, applies
 * cooldowns.changed, app.paused and claude.changed payloads directly, refetches on other events, redraws at most
 * once per `throttleMs`, and ticks every `tickMs` only while a countdown is showing.
 */
export function createTrayPresenter(deps: TrayPresenterDeps): TrayPresenter {
  const clock = deps.clock ?? systemClock;
  const tickMs = deps.tickMs ?? 1_000;
  const log = deps.log ?? (() => {});
  let model: TrayModel | null = null;
  let current: TrayView | null = null;
  let tick: unknown = null;
  let stopped = false;
  let needFetch = false;
  let eventCount = 0;
  let disabledIds: ReadonlySet<string> = new Set();
  let names: ReadonlyMap<string, string> = new Map();
  let claude: readonly ClaudeConnectionStatus[] = [];
  let storageLost: string | null = null;
  const quotaRefreshMs = deps.quotaRefreshMs ?? 15_000;
  let quota: readonly TrayQuotaItem[] = [];
  let held: readonly HeldRequestView[] = [];
  let quotaReadAt: number | null = null;
  let quotaTimer: unknown = null;
  const setConnections = (list: readonly ConnectionView[]): void => {
    disabledIds = new Set(list.filter((c) => !c.enabled).map((c) => c.id));
    names = new Map(list.map((c) => [c.id, c.name]));
  };
  let unsubscribe: () => void = () => {};

  const openAtLogin = (): boolean | null => {
    if (!deps.loginItem.supported) return null;
    try {
      return deps.loginItem.get();
    } catch {
      return false;
    }
  };

  const draw = (): void => {
    if (tick !== null) clock.clearTimeout(tick);
    tick = null;
    if (!model || stopped) return;
    const now = clock.now();
    const shown: TrayModel = {
      ...model,
      snapshot: withoutDisabled(model.snapshot, disabledIds),
      claude: claudeConnections(claude, names, disabledIds),
      openAtLogin: openAtLogin(),
      storageLost,
      quota,
      held,
    };
    current = {
      state: trayState(shown.snapshot, shown.info, now),
      tooltip: trayTooltip(shown, now),
      template: buildTrayTemplate(shown, now),
    };
    deps.render(current);
    if (hasCountdown(shown, now)) tick = clock.setTimeout(draw, tickMs);
  };

  /**
   * Pools near saturation, read at most once per `quotaRefreshMs` (a request storm refetches the model every
   * second); a core without the quota methods, or one that fails, just shows no quota lines.
   */
  const fetchQuota = async (): Promise<void> => {
    const now = clock.now();
    if (quotaReadAt !== null && now - quotaReadAt < quotaRefreshMs) return;
    quotaReadAt = now;
    const pools = await callContract(deps.router, 'quota.listPools', undefined);
    if (!pools.ok || !Array.isArray(pools.value)) return void (quota = []);
    const usages = await Promise.all(
      pools.value.map((p) => callContract(deps.router, 'quota.poolUsage', { id: p.id })),
    );
    const read = usages.flatMap((u): QuotaPoolUsage[] =>
      u.ok && u.value && Array.isArray(u.value.dimensions) ? [u.value] : [],
    );
    quota = saturatedPools(read);
    scheduleQuotaRead();
  };

  /** While a pool line shows, re-read so it goes away once the window slides below the threshold. */
  const scheduleQuotaRead = (): void => {
    if (quotaTimer !== null) clock.clearTimeout(quotaTimer);
    quotaTimer = null;
    if (stopped || quota.length === 0) return;
    quotaTimer = clock.setTimeout(() => {
      quotaTimer = null;
      needFetch = true;
      update.request();
    }, quotaRefreshMs);
  };

  const fetchModel = async (): Promise<void> => {
    const seenEvents = eventCount;
    const quotaRead = fetchQuota();
    const [snapshot, info, summary, connections, status, waiting] = await Promise.all([
      callContract(deps.router, 'cooldowns.list', undefined),
      callContract(deps.router, 'app.info', undefined),
      callContract(deps.router, 'activity.summary', undefined),
      callContract(deps.router, 'connections.list', undefined),
      callContract(deps.router, 'claude.status', undefined),
      callContract(deps.router, 'held.list', undefined),
    ]);
    if (waiting.ok && Array.isArray(waiting.value)) held = waiting.value;
    await quotaRead;
    if (stopped) return;
    if (connections.ok) setConnections(connections.value);
    // Claude usage is extra: a core that cannot answer it still gets a tray, just without those lines.
    if (status.ok && Array.isArray(status.value)) claude = status.value;
    if (!snapshot.ok || !info.ok || !summary.ok) {
      const error = [snapshot, info, summary].find((r) => !r.ok);
      log(`Leeway: tray could not read the core (${error && !error.ok ? error.error.code : 'unknown'})`);
      needFetch = true;
      return;
    }
    model = {
      snapshot: snapshot.value,
      info: { proxyUrl: info.value.proxyUrl, paused: info.value.paused },
      summary: summary.value,
      claude: [],
      openAtLogin: null,
    };
    // An event that arrived while we read may be newer than what we read: read once more.
    if (eventCount !== seenEvents) {
      needFetch = true;
      update.request();
    }
  };

  const update = createThrottle(
    () => {
      if (!needFetch) return draw();
      needFetch = false;
      void fetchModel().then(draw);
    },
    deps.throttleMs ?? 1_000,
    clock,
  );

  const onEvent = (event: CoreEvent): void => {
    eventCount++;
    if (event.type === 'cooldowns.changed') {
      if (model) model = { ...model, snapshot: event.payload.snapshot };
    } else if (event.type === 'app.paused') {
      if (model) model = { ...model, info: { ...model.info, paused: event.payload.paused } };
    } else if (event.type === 'claude.changed') {
      claude = event.payload.status;
    } else if (event.type === 'held.changed') {
      held = event.payload.held;
    } else if (event.type === 'storage.lost') {
      // The core refuses every read from now on: keep the last model and say why it stays frozen.
      storageLost = event.payload.message;
    } else if (REFETCH_ON.has(event.type)) {
      if (event.type === 'connections.changed') setConnections(event.payload.connections);
      needFetch = true;
    } else {
      return;
    }
    if (!model) needFetch = true;
    update.request();
  };

  return {
    async start() {
      unsubscribe = deps.subscribe(onEvent);
      await fetchModel();
      draw();
    },
    redraw: draw,
    stop() {
      stopped = true;
      unsubscribe();
      update.cancel();
      if (tick !== null) clock.clearTimeout(tick);
      tick = null;
      if (quotaTimer !== null) clock.clearTimeout(quotaTimer);
      quotaTimer = null;
    },
    view: () => current,
  };
}
