/**
 * The work on one resource that needs no database: parsing, validation, the local identifier, normalisation, the
 * payload digest and the record's blocking tags (the HMACs, the costliest part). It depends only on the source's
 * trust entry, the blocking rules and the key ring, so it runs before the write lock is taken, and for a large
 * file in the preparation thread (prepare-thread.ts) while the previous chunk is matched and written.
 */
import type { ErrorIssue } from '../contract/errors.ts';
import type { BlockingConfig, SourceTrustEntry } from '../contract/profile.ts';
import { validatePatient, type R4Patient } from '../fhir/patient.ts';
import { localIdentifierOf } from '../fhir/local-id.ts';
import { matchFieldsOf } from '../normalise/record.ts';
import { matchedUnderTraumaAlias, placeholderParts } from '../normalise/name.ts';
import { placeholderIdentifierIndexes } from '../normalise/identifier.ts';
import { placeholderContactIndexes } from '../normalise/telecom.ts';
import { placeholderAddressIndex } from '../normalise/address.ts';
import { blockingTags, type BlockingTag, type KeyRing } from '../blocking/tags.ts';
import type { RecordWrite } from '../store/records.ts';
import { payloadDigest } from './payload-digest.ts';
import { refusalOf } from './refusal.ts';

export type PreparedResource =
  /**
   * warnings: fields of a valid record ignored for matching (engine/fhir/patient.ts PatientWarning); no values.
   * tags: the record's blocking tags under every rule and every key of the ring, when they were asked for (a
   * thread preparing ahead computes them; otherwise the writer does, only for a record that is new).
   */
  | {
      readonly kind: 'ready';
      readonly write: RecordWrite;
      readonly tags?: readonly BlockingTag[];
      readonly warnings: readonly ErrorIssue[];
    }
  | { readonly kind: 'rejected'; readonly issues: readonly ErrorIssue[] };

/** What a preparer needs; plain data, so a thread can be given it. */
export interface PreparerSetup {
  readonly source: Pick<SourceTrustEntry, 'SourceSystem' | 'LocalIdentifierSystem'>;
  readonly blocking: BlockingConfig;
  readonly ring: KeyRing;
}

export class RecordPreparer {
  constructor(readonly setup: PreparerSetup) {}

  /**
   * Parses one NDJSON line and prepares it. JSON errors are reported without the parser's message, which can
   * quote the input.
   */
  prepareLine(text: string, withTags = false): PreparedResource {
    let resource: unknown;
    try {
      resource = JSON.parse(text);
    } catch {
      return { kind: 'rejected', issues: [{ path: 'line', message: 'not valid JSON' }] };
    }
    return this.prepareResource(resource, text, withTags);
  }

  prepareResource(resource: unknown, resourceJson: string, withTags = false): PreparedResource {
    try {
      return this.prepareValid(resource, resourceJson, withTags);
    } catch (error) {
      // A fault on one record (a bug, never expected) rejects that record, not the run.
      return { kind: 'rejected', issues: [{ path: 'record', message: refusalOf(error) }] };
    }
  }

  private prepareValid(resource: unknown, resourceJson: string, withTags: boolean): PreparedResource {
    const validation = validatePatient(resource);
    if (!validation.ok) return { kind: 'rejected', issues: validation.issues };
    const { source, blocking, ring } = this.setup;
    // Placeholder names, identifiers, phones, e-mail addresses and address lines are missing for matching, and so is
    // a birth date beside a trauma alias (normalise/name.ts, placeholder-values.ts); the report names the element,
    // never the value.
    const patient = validation.patient;
    const warnings = [
      ...validation.warnings,
      ...aliasBirthDate(patient, validation.warnings),
      ...placeholderParts(patient.name).map((part) => ({
        path: `name.${part}`,
        message: 'is a placeholder for an unknown name; ignored for matching',
      })),
      ...placeholderIdentifierIndexes(patient.identifier, source.LocalIdentifierSystem).map((index) => ({
        path: `identifier[${String(index)}].value`,
        message: 'is a placeholder, not a number of the patient; ignored for matching',
      })),
      ...placeholderContactIndexes(patient.telecom).map((index) => ({
        path: `telecom[${String(index)}].value`,
        message: 'is a placeholder for no phone or e-mail address; ignored for matching',
      })),
      ...placeholderLine(placeholderAddressIndex(patient.address)),
    ];
    const local = localIdentifierOf(patient, source.LocalIdentifierSystem);
    if (!local.ok) return { kind: 'rejected', issues: [local.issue] };
    const fields = matchFieldsOf(patient, {
      localIdentifierSystem: source.LocalIdentifierSystem,
      ignoreBirthDate: warnings.some((w) => w.path === 'birthDate'),
    });
    return {
      kind: 'ready',
      write: {
        sourceSystem: source.SourceSystem,
        localId: local.localId,
        resourceJson,
        fields,
        payloadDigest: payloadDigest(resource),
        // A future instant (a warning) is unknown for ordering, as if absent.
        sourceLastUpdated: warnings.some((w) => w.path === 'meta.lastUpdated')
          ? null
          : (patient.meta?.lastUpdated ?? null),
      },
      ...(withTags ? { tags: blockingTags(fields, blocking, ring) } : {}),
      warnings,
    };
  }
}

/**
 * The warning for a birth date given beside a trauma alias, when the record has no other name to match on and the
 * date is not already a placeholder (normalise/name.ts matchedUnderTraumaAlias): missing for matching.
 */
function aliasBirthDate(patient: R4Patient, warned: readonly ErrorIssue[]): ErrorIssue[] {
  if (patient.birthDate === undefined || warned.some((w) => w.path === 'birthDate')) return [];
  if (!matchedUnderTraumaAlias(patient.name)) return [];
  return [
    {
      path: 'birthDate',
      message:
        "is given beside a trauma or disaster alias (often the day of arrival), not the patient's own; ignored for matching",
    },
  ];
}

/** The warning for a placeholder address line, when the address matched on has one. */
function placeholderLine(index: number | null): ErrorIssue[] {
  if (index === null) return [];
  return [{ path: `address[${String(index)}].line`, message: 'is a placeholder for no address; ignored for matching' }];
}
