#!/usr/bin/env node
// `npm start`: the console in the browser, run from the TypeScript sources through tsx (no stale output).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
