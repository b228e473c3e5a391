/** Opens the registry at the location given (applying its migrations) and closes it: a replica starting. */
import { Store } from '../../../engine/store/store.ts';

const [location] = process.argv.slice(2);
if (location === undefined) throw new Error('usage: open-registry.ts LOCATION');
Store.open(location).close();
