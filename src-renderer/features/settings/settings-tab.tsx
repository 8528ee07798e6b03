import { useStore } from 'zustand';
import { LoadGate } from '../../components/load-gate';
import type { SettingsPatch } from '../../../src-shared/domain/settings';
import { useStores } from '../../stores/stores-context';
import { ErrorRulesSection } from './error-rules-section';
import { ProxyInfo } from './proxy-info';
import { QuotaStoreSection } from './quota-store-section';
import { PROXY_SECTION } from './proxy-fields';
import { RESILIENCE_SECTIONS } from './resilience-fields';
import { FeatureFlagsSection } from './feature-flags-section';
import { SettingsSection } from './settings-section';

/** PROD-6, LOCK-9: resilience and model-lockout settings, proxy limits, and where Headroom runs. */
export function SettingsTab() {
  const { settings } = useStores();
  const state = useStore(settings);
  return (
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <nav className="settings-index" aria-label="Settings sections">
        {[
          ...RESILIENCE_SECTIONS,
          PROXY_SECTION,
          { id: 'quotaStore', title: 'Quota store' },
          { id: 'featureFlags', title: 'Feature flags' },
        ].map((s) => (
          <a key={s.id} href={`#settings`} onClick={(e) => jumpTo(e, `section-${s.id}-title`)}>
            {s.title}
          </a>
        ))}
      </nav>
      <LoadGate state={state} onRetry={() => void state.load()}>
        <div className="settings-stack">
          <h3 className="group-title">Resilience</h3>
          {RESILIENCE_SECTIONS.map((spec) => (
            <SettingsSection key={spec.id} spec={spec} values={state.resilience} save={state.updateResilience} />
          ))}
          <ErrorRulesSection rules={state.resilience?.providerErrorRules} save={state.updateResilience} />
          <h3 className="group-title">Proxy</h3>
          <SettingsSection
            spec={PROXY_SECTION}
            values={state.proxy}
            // The patch holds only fields of PROXY_SECTION, each parsed as a number; the core validates the rest.
            save={(patch) => state.updateProxy(patch as SettingsPatch)}
          />
          <ProxyInfo />
          <h3 className="group-title">Quota</h3>
          <QuotaStoreSection settings={state.proxy} save={state.updateProxy} />
          <h3 className="group-title">Feature flags</h3>
          <FeatureFlagsSection settings={state.proxy} save={state.updateProxy} />
        </div>
      </LoadGate>
    </section>
  );
}

/** Scrolls to a section without touching the hash, which names the tab. */
function jumpTo(event: { preventDefault(): void }, id: string): void {
  event.preventDefault();
  const target = document.getElementById(id);
  target?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  target?.closest('form, section')?.querySelector<HTMLElement>('input, textarea')?.focus({ preventScroll: true });
}
