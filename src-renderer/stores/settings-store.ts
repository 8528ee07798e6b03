import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Result } from '../../src-shared/contract/errors';
import type { ResiliencePatch, ResilienceSettings } from '../../src-shared/domain/resilience-settings';
import type { Settings, SettingsPatch } from '../../src-shared/domain/settings';
import type { ApiClient } from '../api/api-client';
import type { Loadable } from './load-status';

/** The resilience settings in force, section by section, as `resilience.getSettings` answers them. */
export type ResilienceSettingsView = ResilienceSettings;

/** Proxy settings (fed by `settings.changed`) and the resilience settings (no event: re-read after each update). */
export interface SettingsState extends Loadable {
  proxy: Settings | null;
  resilience: ResilienceSettingsView | null;
  load(): Promise<void>;
  /** Replaces the proxy settings with those a `settings.changed` event carried. */
  applyProxy(settings: Settings): void;
  applyResilience(settings: ResilienceSettingsView): void;
  updateProxy(patch: SettingsPatch): Promise<Result<Settings>>;
  /** Sends only the fields that changed; the core deep-merges, validates and clamps. */
  updateResilience(patch: ResiliencePatch): Promise<Result<ResilienceSettingsView>>;
}

export type SettingsStore = StoreApi<SettingsState>;

export function createSettingsStore(api: ApiClient): SettingsStore {
  let version = 0;
  return createStore<SettingsState>()((set, get) => ({
    proxy: null,
    resilience: null,
    status: 'idle',
    error: null,
    async load() {
      const started = version;
      if (get().status !== 'ready') set({ status: 'loading', error: null });
      const [proxy, resilience] = await Promise.all([api.call('settings.get'), api.call('resilience.getSettings')]);
      if (!proxy.ok) return set({ status: 'error', error: proxy.error });
      if (!resilience.ok) return set({ status: 'error', error: resilience.error });
      // An event that landed meanwhile carried newer proxy settings; keep those.
      set({
        proxy: version === started ? proxy.value : get().proxy,
        resilience: resilience.value,
        status: 'ready',
        error: null,
      });
    },
    applyResilience(settings) {
      set({ resilience: settings });
    },
    applyProxy(settings) {
      version++;
      set({ proxy: settings });
    },
    async updateProxy(patch) {
      const result = await api.call('settings.update', patch);
      if (result.ok) get().applyProxy(result.value);
      return result;
    },
    async updateResilience(patch) {
      const result = await api.call('resilience.updateSettings', patch);
      if (result.ok) set({ resilience: result.value });
      return result;
    },
  }));
}
