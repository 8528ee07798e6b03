import type { ReactNode } from 'react';
import type { Result } from '../../../src-shared/contract/errors';
import type { ResiliencePatch, ResilienceSettings } from '../../../src-shared/domain/resilience-settings';
import type { Settings, SettingsPatch } from '../../../src-shared/domain/settings';
import { LoadGate } from '../../components/load-gate';
import { useAction } from '../../resources/action';
import { useResource } from '../../resources/resource-context';
import { PROXY_SETTINGS, RESILIENCE_SETTINGS } from '../../resources/shared-data';
import { EgressProbeSection } from './egress-probe-section';
import { ErrorRulesSection } from './error-rules-section';
import { ProxyInfo } from './proxy-info';
import { QuotaStoreSection } from './quota-store-section';
import { PROXY_SECTION } from './proxy-fields';
import { RESILIENCE_SECTIONS } from './resilience-fields';
import { FeatureFlagsSection } from './feature-flags-section';
import { SettingsGroup } from './settings-group';
import { SettingsSection } from './settings-section';
import { STRATEGY_SECTION } from './strategy-fields';
import { useCollapsedGroups } from './use-collapsed-groups';
import type { SectionSpec } from './field-spec';
import './settings.css';

/** What every card reads and how it saves: the settings in force and the two writes. */
interface SettingsState {
  proxy: Settings;
  resilience: ResilienceSettings;
  updateProxy(patch: SettingsPatch): Promise<Result<Settings>>;
  /** Sends only the fields that changed; the core deep-merges, validates and clamps. */
  updateResilience(patch: ResiliencePatch): Promise<Result<ResilienceSettings>>;
}

/** One foldable group: its cards in order, each named for the index (the id of its heading is `section-<id>-title`). */
interface GroupSpec {
  id: string;
  title: string;
  summary: string;
  sections: { id: string; title: string }[];
  render(state: SettingsState): ReactNode;
}

const specById = (id: string): SectionSpec => {
  const spec = RESILIENCE_SECTIONS.find((s) => s.id === id);
  if (!spec) throw new Error(`no settings section ${id}`);
  return spec;
};
const FAILOVER = ['cooldown', 'breaker', 'windowGate', 'modelLockout', 'comboCooldownWait'].map(specById);
const QUEUES = ['quotaShareConcurrencyLimit', 'requestQueue', 'streamRecovery'].map(specById);
const resilienceCards = (specs: SectionSpec[], state: SettingsState) =>
  specs.map((spec) => (
    <SettingsSection key={spec.id} spec={spec} values={state.resilience} save={state.updateResilience} />
  ));

const GROUPS: GroupSpec[] = [
  {
    id: 'failover',
    title: 'Failover and cooldowns',
    summary:
      'How long a failing connection, provider or model sits out, and when a request waits for one to come back.',
    sections: [...FAILOVER, { id: 'rules', title: 'Provider error rules' }],
    render: (state) => (
      <>
        {resilienceCards(FAILOVER, state)}
        <ErrorRulesSection rules={state.resilience.providerErrorRules} save={state.updateResilience} />
      </>
    ),
  },
  {
    id: 'queues',
    title: 'Queues and streams',
    summary: 'Concurrency limits per connection, the request queue under them, and the slow-stream watchdog.',
    sections: QUEUES,
    render: (state) => resilienceCards(QUEUES, state),
  },
  {
    id: 'routing',
    title: 'Routing',
    summary: 'How combos spread requests over their targets, and switches that change routing at once.',
    sections: [STRATEGY_SECTION, { id: 'featureFlags', title: 'Feature flags' }],
    render: (state) => (
      <>
        <SettingsSection
          spec={STRATEGY_SECTION}
          values={state.proxy}
          // The patch holds only fields of STRATEGY_SECTION, each parsed as a number; the core validates the range.
          save={(patch) => state.updateProxy(patch as SettingsPatch)}
        />
        <FeatureFlagsSection settings={state.proxy} save={state.updateProxy} />
      </>
    ),
  },
  {
    id: 'proxy',
    title: 'Proxy',
    summary: 'Timeouts and limits of the local endpoint, the egress IP probe, and where Leeway runs.',
    sections: [
      PROXY_SECTION,
      { id: 'egressProbe', title: 'Egress IP probe' },
      { id: 'info', title: 'Where Leeway runs' },
    ],
    render: (state) => (
      <>
        <SettingsSection
          spec={PROXY_SECTION}
          values={state.proxy}
          // The patch holds only fields of PROXY_SECTION, each parsed as a number; the core validates the rest.
          save={(patch) => state.updateProxy(patch as SettingsPatch)}
        />
        <EgressProbeSection settings={state.proxy} save={state.updateProxy} />
        <ProxyInfo />
      </>
    ),
  },
  {
    id: 'quota',
    title: 'Quota',
    summary: 'Where quota counters are kept and how full a pool may get before keys are held to their share.',
    sections: [{ id: 'quotaStore', title: 'Quota store' }],
    render: (state) => <QuotaStoreSection settings={state.proxy} save={state.updateProxy} />,
  },
];

export const SETTINGS_GROUP_IDS = GROUPS.map((g) => g.id);

/**
 * Resilience, routing, proxy and quota settings in foldable groups (issue 13 §8), durations in
 * seconds, minutes or hours (stored as milliseconds), and where Leeway runs.
 */
export function SettingsTab() {
  const proxy = useResource(PROXY_SETTINGS);
  const resilience = useResource(RESILIENCE_SETTINGS);
  const updateProxy = useAction('settings.update').run;
  const updateResilience = useAction('resilience.updateSettings').run;
  const groups = useCollapsedGroups();
  return (
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <nav className="settings-index" aria-label="Settings sections">
        {GROUPS.flatMap((g) =>
          g.sections.map((s) => (
            <a
              key={s.id}
              href={`#settings`}
              onClick={(e) => {
                groups.open(g.id);
                jumpTo(e, `section-${s.id}-title`);
              }}
            >
              {s.title}
            </a>
          )),
        )}
      </nav>
      <div className="settings-fold-all">
        <button type="button" className="button small" onClick={() => groups.setAll(SETTINGS_GROUP_IDS, true)}>
          Expand all
        </button>
        <button type="button" className="button small" onClick={() => groups.setAll(SETTINGS_GROUP_IDS, false)}>
          Collapse all
        </button>
      </div>
      <LoadGate resource={proxy}>
        {(proxySettings) => (
          <LoadGate resource={resilience}>
            {(resilienceSettings) => {
              const state = { proxy: proxySettings, resilience: resilienceSettings, updateProxy, updateResilience };
              return GROUPS.map((g) => (
                <SettingsGroup
                  key={g.id}
                  id={g.id}
                  title={g.title}
                  summary={g.summary}
                  open={groups.isOpen(g.id)}
                  onToggle={() => groups.toggle(g.id)}
                >
                  {g.render(state)}
                </SettingsGroup>
              ));
            }}
          </LoadGate>
        )}
      </LoadGate>
    </section>
  );
}

/** Scrolls to a section without touching the hash, which names the tab; after a fold opened it, on the next frame. */
function jumpTo(event: { preventDefault(): void }, id: string): void {
  event.preventDefault();
  const go = (): void => {
    const target = document.getElementById(id);
    target?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    target?.closest('form, section')?.querySelector<HTMLElement>('input, textarea')?.focus({ preventScroll: true });
  };
  if (typeof window.requestAnimationFrame === 'function') window.requestAnimationFrame(go);
  else go();
}
