import { useEffect, useState, type ComponentType } from 'react';
import { ActivityTab } from './features/activity/activity-tab';
import { CombosTab } from './features/combos/combos-tab';
import { ConnectionsTab } from './features/connections/connections-tab';
import { CooldownsBadge } from './features/cooldowns/cooldowns-badge';
import { CooldownsTab } from './features/cooldowns/cooldowns-tab';
import { AppHeader } from './features/header/app-header';
import { KeysTab } from './features/keys/keys-tab';
import { OverviewTab } from './features/overview/overview-tab';
import { QuotaTab } from './features/quota/quota-tab';
import { RoutesTab } from './features/routes/routes-tab';
import { SessionsTab } from './features/sessions/sessions-tab';
import { SettingsTab } from './features/settings/settings-tab';
import { SetupTab } from './features/setup/setup-tab';

interface TabDef {
  id: string;
  label: string;
  view: ComponentType;
  /** A small live count beside the label (e.g. how many things are cooling). */
  badge?: ComponentType;
}

const TABS = [
  { id: 'overview', label: 'Overview', view: OverviewTab },
  { id: 'connections', label: 'Connections', view: ConnectionsTab },
  { id: 'cooldowns', label: 'Cooldowns', view: CooldownsTab, badge: CooldownsBadge },
  { id: 'keys', label: 'Keys', view: KeysTab },
  { id: 'combos', label: 'Combos', view: CombosTab },
  { id: 'routes', label: 'Routes', view: RoutesTab },
  { id: 'sessions', label: 'Sessions', view: SessionsTab },
  { id: 'quota', label: 'Quota', view: QuotaTab },
  { id: 'activity', label: 'Activity', view: ActivityTab },
  { id: 'setup', label: 'Setup', view: SetupTab },
  { id: 'settings', label: 'Settings', view: SettingsTab },
] as const satisfies readonly TabDef[];

type TabId = (typeof TABS)[number]['id'];

/** The tab named in the URL hash, so a reload or a shared link lands on the same view; Overview without one. */
function tabFromHash(): TabId {
  const wanted = window.location.hash.slice(1);
  return TABS.find((t) => t.id === wanted)?.id ?? 'overview';
}

/** The dashboard shell: header with the proxy state, then one tab per domain. */
export function App() {
  const [tab, setTab] = useState<TabId>(tabFromHash);
  useEffect(() => {
    const onHash = (): void => setTab(tabFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const current = TABS.find((t) => t.id === tab) ?? TABS[0];
  const View = current.view;

  return (
    <div className="app">
      <AppHeader />
      <nav className="tabs" role="tablist" aria-label="Sections">
        {TABS.map((t: TabDef) => (
          <a
            key={t.id}
            href={`#${t.id}`}
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={t.id === tab}
            aria-controls="panel"
            className={t.id === tab ? 'tab active' : 'tab'}
          >
            {t.label}
            {t.badge && <t.badge />}
          </a>
        ))}
      </nav>
      <main id="panel" role="tabpanel" aria-labelledby={`tab-${tab}`} className="panel">
        <View />
      </main>
    </div>
  );
}
