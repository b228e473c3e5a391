/** Hash routes (the app is served from files or a custom protocol, so the path never changes): pure, tested without a browser. */

export type Route =
  | { readonly page: 'maintenance' }
  | { readonly page: 'job'; readonly jobId: string }
  | { readonly page: 'sandboxes' }
  | { readonly page: 'assurance' }
  /** jobId: the cases one job opened (from a job's page). */
  | { readonly page: 'reviews'; readonly jobId: string | null }
  | { readonly page: 'review'; readonly caseId: string }
  | { readonly page: 'identity'; readonly enterpriseId: string }
  | { readonly page: 'health' };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '');
  const job = /^\/maintenance\/jobs\/([A-Za-z0-9-]{1,80})$/.exec(path);
  if (job?.[1] !== undefined) return { page: 'job', jobId: job[1] };
  const reviewCase = /^\/reviews\/(rc-[0-9a-f]{32})$/.exec(path);
  if (reviewCase?.[1] !== undefined) return { page: 'review', caseId: reviewCase[1] };
  const identity = /^\/identities\/([A-Za-z0-9-]{1,64})$/.exec(path);
  if (identity?.[1] !== undefined) return { page: 'identity', enterpriseId: identity[1] };
  const reviews = /^\/reviews(?:\?job=([A-Za-z0-9-]{1,80}))?$/.exec(path);
  if (reviews !== null) return { page: 'reviews', jobId: reviews[1] ?? null };
  if (path === '/sandboxes') return { page: 'sandboxes' };
  if (path === '/assurance') return { page: 'assurance' };
  if (path === '/health') return { page: 'health' };
  return { page: 'maintenance' };
}

export const paths = {
  maintenance: '#/maintenance',
  job: (jobId: string) => `#/maintenance/jobs/${jobId}`,
  sandboxes: '#/sandboxes',
  assurance: '#/assurance',
  health: '#/health',
  reviews: (jobId?: string) => (jobId === undefined ? '#/reviews' : `#/reviews?job=${jobId}`),
  review: (caseId: string) => `#/reviews/${caseId}`,
  identity: (enterpriseId: string) => `#/identities/${enterpriseId}`,
} as const;
