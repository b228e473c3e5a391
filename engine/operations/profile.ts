import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { isEngineError, validationError, type ErrorIssue } from '../contract/errors.ts';
import type { MatchingProfile } from '../contract/profile.ts';
import { parseProfile, profileIssues } from '../profile/validate.ts';
import { activeProfile, insertActiveProfile, type StoredProfile } from '../store/profiles.ts';
import { requireTenant } from '../store/tenants.ts';
import { writeAudit } from '../store/audit.ts';
import type { EngineEnv } from '../env.ts';
import { freeTextIssues } from '../text/free-text.ts';
import { crashPoint } from '../fault-injection.ts';
import { maskSecrets } from '../config/settings.ts';
import { profileContextIssues } from './profile-checks.ts';

const SECTIONS = [
  'Comparators',
  'MatchingRules',
  'Blocking',
  'SourceTrust',
  'TrustedIdentifierSystems',
  'PersonalIdentifierSystems',
  'HardConflictRules',
];

/**
 * A profile document is a whole profile, some of its top-level sections (each replaces the active one's),
 * or a calibrated Fellegi-Sunter model object (it becomes MatchingRules.FellegiSunter).
 */
export function mergeDocument(current: MatchingProfile, document: unknown): unknown {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw validationError('a profile document is a JSON object');
  }
  const doc = document as Record<string, unknown>;
  if (doc.kind === 'fellegi-sunter-model') {
    return { ...current, MatchingRules: { ...current.MatchingRules, FellegiSunter: doc } };
  }
  const unknown = Object.keys(doc).filter((key) => !SECTIONS.includes(key));
  if (unknown.length > 0) {
    throw validationError(
      'the profile document has unknown sections',
      unknown.map((key) => ({ path: key, message: `unknown section; expected one of ${SECTIONS.join(', ')}` })),
    );
  }
  return { ...current, ...doc };
}

function modelConsistencyIssues(profile: MatchingProfile): { path: string; message: string }[] {
  const model = profile.MatchingRules.FellegiSunter;
  if (model === null || model.trainedAgainst.comparatorVersion === profile.Comparators.Version) return [];
  return [
    {
      path: 'MatchingRules.FellegiSunter.trainedAgainst.comparatorVersion',
      message: `the model was trained against comparator version ${JSON.stringify(model.trainedAgainst.comparatorVersion)} but the profile uses ${JSON.stringify(profile.Comparators.Version)}; recalibrate against the profile's comparators`,
    },
  ];
}

export function getProfile(
  env: EngineEnv,
  _input: OperationInput<'profile/get'>,
  ctx: CallContext,
): OperationOutput<'profile/get'> {
  requireTenant(env.store, ctx.tenantId);
  const stored = activeProfile(env.store, ctx.tenantId);
  return {
    matchingProfileVersion: stored.version,
    createdAt: stored.createdAt,
    reason: stored.reason,
    active: stored.active,
    profile: stored.profile,
  };
}

/**
 * Every issue of a document against the active profile: control characters anywhere in the document (its
 * own paths), the profile's own rules, the model's consistency, then the key versions and the blocking
 * index. Empty when it may be applied.
 */
function documentIssues(
  env: EngineEnv,
  ctx: CallContext,
  current: StoredProfile,
  document: unknown,
): { issues: ErrorIssue[]; profile?: MatchingProfile } {
  const { issues, profile } = unmaskedIssues(env, ctx, current, document);
  // Profile messages quote the offending values (configuration, not patient data), but never a secret.
  const masked = issues.map((issue) => ({ path: maskSecrets(issue.path), message: maskSecrets(issue.message) }));
  return profile === undefined ? { issues: masked } : { issues: masked, profile };
}

function unmaskedIssues(
  env: EngineEnv,
  ctx: CallContext,
  current: StoredProfile,
  document: unknown,
): { issues: ErrorIssue[]; profile?: MatchingProfile } {
  const text = freeTextIssues(document);
  if (text.length > 0) return { issues: text };
  let merged: unknown;
  try {
    merged = mergeDocument(current.profile, document);
  } catch (error) {
    if (isEngineError(error))
      return { issues: error.issues.length > 0 ? [...error.issues] : [{ path: '(root)', message: error.message }] };
    throw error;
  }
  const issues = profileIssues(merged);
  if (issues.length > 0) return { issues };
  const profile = parseProfile(merged);
  const consistency = modelConsistencyIssues(profile);
  if (consistency.length > 0) return { issues: consistency };
  return { issues: profileContextIssues(env.store, ctx.tenantId, env.settings(), current, profile), profile };
}

/** The active profile with a candidate document merged and checked, refused with its issues when it could not be applied. */
export function checkedCandidate(
  env: EngineEnv,
  ctx: CallContext,
  current: StoredProfile,
  document: unknown,
): MatchingProfile {
  const { issues, profile } = documentIssues(env, ctx, current, document);
  if (profile === undefined || issues.length > 0) {
    throw validationError(
      `the matching profile is invalid (${String(issues.length)} issue${issues.length === 1 ? '' : 's'})`,
      issues,
    );
  }
  return profile;
}

export function validateProfile(
  env: EngineEnv,
  input: OperationInput<'profile/validate'>,
  ctx: CallContext,
): OperationOutput<'profile/validate'> {
  requireTenant(env.store, ctx.tenantId);
  const { issues } = env.store.read(() =>
    documentIssues(env, ctx, activeProfile(env.store, ctx.tenantId), input.document),
  );
  return { valid: issues.length === 0, issues };
}

/**
 * Applies a document as the next profile version. Under the configuration lock (so no key it names can be
 * removed meanwhile) and in one registry transaction (so the index it is checked against cannot change).
 */
export function applyProfile(
  env: EngineEnv,
  input: OperationInput<'profile/apply'>,
  ctx: CallContext,
): OperationOutput<'profile/apply'> {
  requireTenant(env.store, ctx.tenantId);
  return env.withSettingsLock(() =>
    env.store.write(() => {
      const current = activeProfile(env.store, ctx.tenantId);
      const { issues, profile } = documentIssues(env, ctx, current, input.document);
      if (profile === undefined || issues.length > 0) {
        throw validationError(
          `the matching profile is invalid (${String(issues.length)} issue${issues.length === 1 ? '' : 's'})`,
          issues,
        );
      }
      const at = new Date().toISOString();
      const version = insertActiveProfile(env.store, ctx.tenantId, profile, input.reason, at);
      crashPoint('profile:before-commit');
      writeAudit(
        env.store,
        ctx.tenantId,
        {
          actor: ctx.actor,
          action: 'profile.apply',
          subject: `matching-profile/${String(version)}`,
          detail: {
            previousVersion: current.version,
            comparatorVersion: profile.Comparators.Version,
            model: profile.MatchingRules.FellegiSunter?.modelVersion ?? null,
            blockingVersion: profile.Blocking.Version,
          },
        },
        at,
      );
      return { matchingProfileVersion: version, previousVersion: current.version };
    }),
  );
}
