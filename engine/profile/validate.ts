/**
 * Validation of a whole matching profile: structure first, then the rules a schema cannot say. Every issue
 * names the path and, since a profile is configuration rather than patient data, the offending value.
 */
import type { ErrorIssue } from '../contract/errors.ts';
import { validationError } from '../contract/errors.ts';
import { MatchingProfileSchema, type MatchingProfile } from '../contract/profile.ts';
import { zodIssues } from '../contract/zod-issues.ts';
import { BANDS } from '../contract/fields.ts';
import { comparatorProfileIssues } from './validate-comparators.ts';

const RestSchema = MatchingProfileSchema.omit({ Comparators: true });

function duplicates(values: readonly string[], path: string, what: string): ErrorIssue[] {
  const seen = new Map<string, number>();
  const issues: ErrorIssue[] = [];
  values.forEach((value, index) => {
    const first = seen.get(value);
    if (first === undefined) seen.set(value, index);
    else
      issues.push({
        path: `${path}[${String(index)}]`,
        message: `duplicate ${what} ${JSON.stringify(value)} (also at ${path}[${String(first)}])`,
      });
  });
  return issues;
}

function semanticIssues(profile: MatchingProfile): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  issues.push(
    ...duplicates(
      profile.SourceTrust.map((s) => s.SourceSystem),
      'SourceTrust',
      'source system',
    ),
  );
  issues.push(
    ...duplicates(
      profile.Blocking.Rules.map((r) => r.Name),
      'Blocking.Rules',
      'rule name',
    ),
  );
  issues.push(...duplicates(profile.TrustedIdentifierSystems, 'TrustedIdentifierSystems', 'identifier system'));
  issues.push(...duplicates(profile.PersonalIdentifierSystems ?? [], 'PersonalIdentifierSystems', 'identifier system'));
  issues.push(...duplicates(profile.HardConflictRules, 'HardConflictRules', 'rule'));
  if (profile.Blocking.InactiveKeyVersion === profile.Blocking.ActiveKeyVersion) {
    issues.push({
      path: 'Blocking.InactiveKeyVersion',
      message: `the inactive key version ${JSON.stringify(profile.Blocking.InactiveKeyVersion)} must differ from the active one`,
    });
  }
  const model = profile.MatchingRules.FellegiSunter;
  if (model !== null) {
    for (const [field, params] of Object.entries(model.fields)) {
      for (const side of ['m', 'u'] as const) {
        const total = BANDS.reduce((sum, band) => sum + params[side][band], 0);
        if (Math.abs(total - 1) > 1e-6) {
          issues.push({
            path: `MatchingRules.FellegiSunter.fields.${field}.${side}`,
            message: `band probabilities must sum to 1 (they sum to ${total.toFixed(6)})`,
          });
        }
      }
    }
  }
  return issues;
}

/** Every issue in a candidate profile document; empty when it is valid. */
export function profileIssues(raw: unknown): ErrorIssue[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return [{ path: '(root)', message: 'a matching profile is a JSON object' }];
  }
  const { Comparators, ...rest } = raw as Record<string, unknown>;
  const issues: ErrorIssue[] = [];
  if (Comparators === undefined) issues.push({ path: 'Comparators', message: 'required' });
  else issues.push(...comparatorProfileIssues(Comparators, 'Comparators'));
  const parsedRest = RestSchema.safeParse(rest);
  if (!parsedRest.success) issues.push(...zodIssues(parsedRest.error));
  if (issues.length > 0) return issues;
  return semanticIssues(MatchingProfileSchema.parse(raw));
}

/** The profile, or a validation error listing every issue. */
export function parseProfile(raw: unknown): MatchingProfile {
  const issues = profileIssues(raw);
  if (issues.length > 0)
    throw validationError(
      `the matching profile is invalid (${String(issues.length)} issue${issues.length === 1 ? '' : 's'})`,
      issues,
    );
  return MatchingProfileSchema.parse(raw);
}
