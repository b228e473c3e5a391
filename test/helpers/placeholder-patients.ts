/**
 * A registry's placeholder patient as one source sends it again and again: "Unknown Patient", born 1900-01-01, at the
 * hospital's own address, a new medical record number each time. The model links them all into one identity, which
 * the link-quality scan flags as too large and as one source twice. `count` of them as NDJSON lines.
 */
export function placeholderPatients(count: number): string {
  return (
    Array.from({ length: count }, (_, i) =>
      JSON.stringify({
        resourceType: 'Patient',
        id: `unknown-${String(i)}`,
        identifier: [{ system: 'urn:mpi-demo:st-marys-hospital:mrn', value: `UNK${String(i).padStart(5, '0')}` }],
        name: [{ use: 'official', family: 'Unknown', given: ['Patient'] }],
        gender: 'male',
        birthDate: '1900-01-01',
        address: [{ use: 'home', line: ['1 Main Street'], city: 'Springfield', state: 'ND', postalCode: '72419' }],
      }),
    ).join('\n') + '\n'
  );
}
