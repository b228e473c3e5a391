/**
 * What a person types in "Watch job": the full ID (`job-…`), or the short form the jobs list and the job page
 * show (the first 8 characters after `job-`). A short form is resolved against the jobs the console knows.
 */
export const JOB_ID = /^[A-Za-z0-9-]{8,80}$/;
const SHORT = /^(job-)?[A-Za-z0-9]{1,12}$/;

/** The short form shown in lists: the first 8 characters after `job-`. */
export function shortJobId(jobId: string): string {
  return jobId.replace(/^job-/, '').slice(0, 8);
}

export type JobIdResolution =
  | { readonly kind: 'job'; readonly jobId: string }
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'ambiguous'; readonly message: string }
  | { readonly kind: 'unknown-short'; readonly message: string };

export function resolveJobId(typed: string, known: readonly string[]): JobIdResolution {
  const text = typed.trim();
  if (!JOB_ID.test(text) && !SHORT.test(text))
    return {
      kind: 'invalid',
      message: 'A job ID is letters, digits and dashes: the full ID (job-…) or the 8 characters the list shows',
    };
  if (known.includes(text)) return { kind: 'job', jobId: text };
  const prefix = text.replace(/^job-/, '').toLowerCase();
  const matches = known.filter((id) => id.replace(/^job-/, '').toLowerCase().startsWith(prefix));
  if (matches.length === 1 && matches[0] !== undefined) return { kind: 'job', jobId: matches[0] };
  if (matches.length > 1)
    return { kind: 'ambiguous', message: `${String(matches.length)} jobs start with ${prefix}: type more of the ID` };
  // Not among the jobs this console lists: a full ID is asked of the registry as it is; a short one cannot be.
  if (text.startsWith('job-') && text.length > 12 && JOB_ID.test(text)) return { kind: 'job', jobId: text };
  return {
    kind: 'unknown-short',
    message: `No listed job starts with ${prefix}: paste the full ID (job-…, as "job show" prints it)`,
  };
}
