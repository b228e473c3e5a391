/**
 * The project's own small en-US nickname dictionary (spec "Comparator profile", rule 2: no nickname
 * list is enabled by default). Nothing loads it unless a profile includes it; this loader exists for
 * demos and tests.
 */
import { readFileSync } from 'node:fs';
import { NicknameDictionarySchema } from '../../contract/profile.ts';
import type { NicknameDictionary } from '../../contract/profile.ts';

export function demoNicknameDictionary(): NicknameDictionary {
  const text = readFileSync(new URL('./en-US.json', import.meta.url), 'utf8');
  return NicknameDictionarySchema.parse(JSON.parse(text));
}
