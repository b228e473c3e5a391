/**
 * The Electron main process: the only module that touches `electron`. It wires the tested pieces together:
 * the app:// protocol over the built renderer, the window options, the navigation and permission guards,
 * the IPC handlers and event forwarding, the menu and the single-instance lock, around the same backend the
 * browser host uses. Tokens and secrets stay in this process (the renderer only ever sees contract data).
 */
import { app, BrowserWindow, ipcMain, Menu, protocol, safeStorage, session, shell } from 'electron';
import { fileURLToPath } from 'node:url';
import { ConsoleBackend } from '../backend/console-backend.ts';
import { defaultDataFolder } from '../backend/data-folder.ts';
import { keepFailureLog } from '../engine-host/failure-log.ts';
import { APP_ENTRY_URL, APP_SCHEME, APP_SCHEME_PRIVILEGES, appResponse } from './app-protocol.ts';
import { forwardEvents, isAppMainFrame, registerIpc } from './ipc.ts';
import { menuTemplate } from './menu-template.ts';
import { guardWebContents, isAllowedExternal } from './navigation-guard.ts';
import { denyAllPermissions } from './permissions.ts';
import { windowOptions } from './window-options.ts';
import { SafeStorageTokenStore } from './safe-token-store.ts';

// Built layout: dist/app/main/electron/main.js beside preload.cjs; the renderer in dist/renderer.
const PRELOAD = fileURLToPath(new URL('./preload.cjs', import.meta.url));
const RENDERER_DIR = fileURLToPath(new URL('../../../renderer/', import.meta.url));

const openExternal = (url: string): void => {
  if (isAllowedExternal(url)) void shell.openExternal(url);
};

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let window: BrowserWindow | null = null;
  // The same data folder as the browser host: both show the same recent sandboxes.
  const dataFolder = defaultDataFolder();
  // Started from the desktop, the console has no terminal: the line for support about an unexpected failure is kept
  // in its data folder (every engine thread starts after this and inherits it).
  keepFailureLog(dataFolder);
  // A remote registry's sign-in: the provider's page in the system browser; tokens encrypted with safeStorage.
  const backend = new ConsoleBackend({
    dataFolder,
    tokenStore: new SafeStorageTokenStore(safeStorage, dataFolder),
    openExternal: async (url) => {
      await shell.openExternal(url);
      return true;
    },
  });

  app.on('second-instance', () => {
    if (window === null) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('web-contents-created', (_event, contents) => {
    guardWebContents(contents, openExternal);
  });

  void app.whenReady().then(async () => {
    denyAllPermissions(session.defaultSession);
    protocol.handle(APP_SCHEME, async (request) => {
      const answer = await appResponse(RENDERER_DIR, request.url);
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    });
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(menuTemplate({ platform: process.platform, packaged: app.isPackaged, openExternal })),
    );
    await backend.start();

    const created = new BrowserWindow(windowOptions({ preloadPath: PRELOAD, devTools: !app.isPackaged }));
    window = created;
    const webContentsId = created.webContents.id;
    registerIpc(ipcMain, backend, (event) => isAppMainFrame(event, webContentsId));
    const stopForwarding = forwardEvents(backend, created.webContents);
    created.once('ready-to-show', () => {
      created.show();
    });
    created.on('closed', () => {
      stopForwarding();
      window = null;
    });
    await created.loadURL(APP_ENTRY_URL);
  });

  app.on('window-all-closed', () => {
    app.quit();
  });

  // Let the maintenance worker finish its batch and release its lease before the process ends.
  let closing = false;
  app.on('before-quit', (event) => {
    if (closing) return;
    closing = true;
    event.preventDefault();
    void backend.close().finally(() => {
      app.exit(0);
    });
  });
}
