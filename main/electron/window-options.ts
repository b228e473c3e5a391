/** The main window's options: the renderer is untrusted content with no Node, no webview and a sandbox. */
import type { BrowserWindowConstructorOptions } from 'electron';

export function windowOptions(options: {
  readonly preloadPath: string;
  readonly devTools: boolean;
}): BrowserWindowConstructorOptions {
  return {
    width: 1320,
    height: 880,
    minWidth: 960,
    minHeight: 620,
    show: false,
    title: 'MPI Console',
    backgroundColor: '#f8f9fa',
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools: options.devTools,
    },
  };
}
