/** A trusted identifier, on some hospital and clinic records only, and never wrong. */
export const NATIONAL_ID_SYSTEM = 'urn:mpi-demo:national-health-id';
