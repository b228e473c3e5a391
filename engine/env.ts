import type { Store } from './store/store.ts';
import type { Settings } from './config/settings.ts';
import type { SettingsChange, SettingsSource } from './config/settings-file.ts';

/** What every operation handler gets: the store and the configuration beside it. */
export class EngineEnv {
  constructor(
    readonly store: Store,
    readonly config: SettingsSource,
  ) {}

  /** The configuration file, or a note that the configuration is kept in memory. */
  get settingsPath(): string {
    return this.config.path ?? '(in memory: the database is in memory)';
  }

  settings(): Settings {
    return this.config.read();
  }

  /** Runs fn under the configuration lock, so the settings it reads cannot change until it returns. */
  withSettingsLock<T>(fn: () => T): T {
    return this.config.locked(fn);
  }

  /** A change of the configuration and of the registry, all or nothing (engine/config/settings-file.ts). */
  changeSettings<T>(plan: (current: Settings) => SettingsChange<T>): T {
    return this.config.change(this.store, plan);
  }
}
