/**
 * Holds the write lock of the database named on the command line: opens it, takes BEGIN IMMEDIATE, prints
 * "held" and waits until standard input ends, then commits (nothing was written) and exits.
 */
import { Store } from '../../engine/store/store.ts';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: hold-write-lock.ts DB');
const store = Store.open(path);
store.exec('BEGIN IMMEDIATE');
process.stdout.write('held\n');
process.stdin.resume();
process.stdin.on('end', () => {
  store.exec('COMMIT');
  store.close();
  process.exit(0);
});
