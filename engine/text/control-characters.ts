/** The one implementation lives in the contract, which the renderer shares (label preview): see there. */
export { hasControlCharacter } from '../contract/control-characters.ts';
