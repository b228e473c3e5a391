/**
 * Where an unexpected failure happened, for a log line: the error's name, its code when it has one
 * (`ERR_DLOPEN_FAILED`, `SQLITE_IOERR_WRITE`) and the first frames of its stack as file:line:column. Never its message:
 * an unexpected error's text can quote a patient's values, a token or a URL with credentials, and the stack's first
 * line repeats it, so the frames are read only after that line. An EngineError made from such a failure is traced
 * through its cause. Frames in this program are given from its root (`engine/store/db.ts:55:11`, or the same path
 * in its JavaScript build); Node's own and the dependencies' keep their full path.
 */
import { dirname, isAbsolute, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const FRAMES = 3;
const NAME = /^[A-Za-z_$][\w$]{0,63}$/;
const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;
const LOCATION = /\(?((?:file:\/\/|node:|\/|[A-Za-z]:\\)[^()\s]*?:\d+:\d+)\)?$/;

export function unexpectedTrace(error: unknown): string {
  const failure = error instanceof Error && error.cause !== undefined ? error.cause : error;
  if (!(failure instanceof Error)) return `a thrown ${failure === null ? 'null' : typeof failure}, not an Error`;
  const name = NAME.test(failure.name) ? failure.name : 'Error';
  const code = (failure as { code?: unknown }).code;
  const head = typeof code === 'string' && CODE.test(code) ? `${name} ${code}` : name;
  const frames = framesOf(failure);
  return frames.length === 0 ? `${head} (no stack)` : `${head} at ${frames.join(' < ')}`;
}

function framesOf(failure: Error): string[] {
  const stack = failure.stack;
  // The header is the name and message as they were when the stack was first read; a stack that does not start with
  // them now (a message changed since, a stack set by hand) could hold message text anywhere, so none of it is read.
  const header = failure.message === '' ? failure.name : `${failure.name}: ${failure.message}`;
  if (typeof stack !== 'string' || !stack.startsWith(`${header}\n`)) return [];
  const locations: string[] = [];
  for (const line of stack.slice(header.length + 1).split('\n')) {
    if (!line.trimStart().startsWith('at ')) continue;
    const location = LOCATION.exec(line.trim())?.[1];
    if (location !== undefined) locations.push(location);
  }
  // The program's frames (and its dependencies') say more than Node's own, which come first for a failed system call.
  const outside = locations.filter((location) => !location.startsWith('node:'));
  return (outside.length > 0 ? outside : locations).slice(0, FRAMES).map(fromRoot);
}

function fromRoot(location: string): string {
  if (location.startsWith('node:')) return location;
  const file = location.replace(/:\d+:\d+$/, '');
  const path = file.startsWith('file://') ? fileURLToPath(file) : file;
  const inside = relative(ROOT, path);
  const shown = inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside) ? path : inside;
  return `${shown.split(sep).join('/')}${location.slice(file.length)}`;
}
