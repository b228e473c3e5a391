/**
 * The synthetic population's four sources, most trusted first, each with the identifier system of its MRNs.
 * Kept apart from the generator so that naming the sources (the sandbox profile) does not load faker.
 */
export interface SyntheticSource {
  readonly sourceSystem: string;
  readonly localIdentifierSystem: string;
}

export const SOURCE_NAMES = ['st-marys-hospital', 'riverside-clinic', 'northside-gp', 'community-pharmacy'] as const;
/** MRN prefixes, parallel to SOURCE_NAMES. */
export const MRN_PREFIXES = ['SM', 'RC', 'NG', 'CP'] as const;

/** Most trusted first. */
export const SYNTHETIC_SOURCES: readonly SyntheticSource[] = SOURCE_NAMES.map((name) => ({
  sourceSystem: name,
  localIdentifierSystem: `urn:mpi-demo:${name}:mrn`,
}));
