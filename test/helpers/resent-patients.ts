/**
 * A source's Patients sent again as new records, with fields left out: how the tests make a source that stops sending
 * a field, or another source that sends known people with less to match on. Each record gets a new ID and new
 * identifier values (the prefix before the old ones), under another source's identifier system when one is given.
 */
export interface Resending {
  /** Put before each record's ID and each identifier's value, so that every record is a new one. */
  readonly prefix: string;
  /** The fields the records are sent without. */
  readonly without: readonly string[];
  /** The identifier system of the source that sends them again (the records' own when absent). */
  readonly system?: string;
}

export function resentPatients(lines: readonly string[], resending: Resending): string[] {
  return lines.map((line) => {
    const patient = JSON.parse(line) as { id: string; identifier?: { system: string; value: string }[] };
    const kept = Object.fromEntries(Object.entries(patient).filter(([field]) => !resending.without.includes(field)));
    return JSON.stringify({
      ...kept,
      id: `${resending.prefix}${patient.id}`,
      identifier: (patient.identifier ?? []).map((identifier) => ({
        system: resending.system ?? identifier.system,
        value: `${resending.prefix}${identifier.value}`,
      })),
    });
  });
}
