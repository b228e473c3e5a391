/**
 * Shared pieces of the property-based hardening suites: planted values (patient-like canaries and blocking
 * secrets) and the checks every rejection must pass — an engine error of an expected kind, every issue
 * naming a path or line, and no planted value anywhere in what the caller sees.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { expect } from 'vitest';
import { EngineError, type ErrorKind } from '../../engine/contract/errors.ts';

/** Patient-like values: if one of these shows up in an error, patient data leaked. */
export const CANARIES = [
  'ZqxCanaryFamily',
  'QvjCanaryGiven',
  'CANARY-ID-770412',
  '+44 7700 900417',
  '17 Canary Wharf Lane',
];

export const newSecret = (): string => randomBytes(32).toString('base64');

/** A planted value, sometimes wrapped in other text or in control characters. */
export function plantedText(planted: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...planted), fc.constantFrom('', ' ', '\u001b[31m', '\t', 'x', '\u202e'), fc.boolean())
    .map(([value, extra, before]) => (before ? extra + value : value + extra));
}

export function rejection(error: unknown): EngineError {
  expect(error, String(error)).toBeInstanceOf(EngineError);
  return error as EngineError;
}

/** A rejection as the contract promises it: the right kind, paths named, nothing planted repeated. */
export function expectSafeRejection(
  error: unknown,
  planted: readonly string[],
  kinds: readonly ErrorKind[] = ['validation'],
): EngineError {
  const engineError = rejection(error);
  expect(kinds, engineError.message).toContain(engineError.kind);
  if (engineError.kind === 'validation') expect(engineError.issues.length, engineError.message).toBeGreaterThan(0);
  for (const issue of engineError.issues) expect(issue.path, issue.message).not.toBe('');
  expectNoPlanted(JSON.stringify(engineError.toData()), planted);
  return engineError;
}

export function expectNoPlanted(text: string, planted: readonly string[]): void {
  for (const value of planted)
    expect(text.includes(value), `a planted value appeared: ${text.slice(0, 400)}`).toBe(false);
}
