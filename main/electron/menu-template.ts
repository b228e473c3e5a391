/** The application menu: standard editing and window roles; developer tools only in an unpackaged build. */
import type { MenuItemConstructorOptions } from 'electron';

export const FHIR_PATIENT_URL = 'https://hl7.org/fhir/R4/patient.html';

export function menuTemplate(options: {
  readonly platform: NodeJS.Platform;
  readonly packaged: boolean;
  readonly openExternal: (url: string) => void;
}): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const view: MenuItemConstructorOptions[] = [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (!options.packaged) view.push({ type: 'separator' }, { role: 'reload' }, { role: 'toggleDevTools' });
  return [
    ...(mac ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    { label: 'File', submenu: [mac ? { role: 'close' } : { role: 'quit' }] },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        {
          label: 'FHIR R4 Patient resource',
          click: () => {
            options.openExternal(FHIR_PATIENT_URL);
          },
        },
      ],
    },
  ];
}
