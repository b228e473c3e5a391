import type { Store } from './store/db.ts';
import { loadSettings, saveSettings, type Settings } from './config/settings.ts';

/** What every operation handler gets: the store and the configuration file beside it. */
export class EngineEnv {
  constructor(
    readonly store: Store,
    readonly settingsPath: string,
  ) {}

  settings(): Settings {
    return loadSettings(this.settingsPath);
  }

  saveSettings(settings: Settings): void {
    saveSettings(this.settingsPath, settings);
  }
}
