import { describe, expect, it } from 'vitest';
import { parseRoute, paths } from '../../../renderer/hooks/route-paths.ts';

describe('console routes', () => {
  it('reads every page from its hash and writes the hash back', () => {
    expect(parseRoute(paths.maintenance)).toEqual({ page: 'maintenance' });
    expect(parseRoute(paths.job('job-1234abcd'))).toEqual({ page: 'job', jobId: 'job-1234abcd' });
    expect(parseRoute(paths.assurance)).toEqual({ page: 'assurance' });
    expect(parseRoute(paths.reviews())).toEqual({ page: 'reviews', jobId: null });
    expect(parseRoute(paths.reviews('job-1234abcd'))).toEqual({ page: 'reviews', jobId: 'job-1234abcd' });
    const caseId = 'rc-0123456789abcdef0123456789abcdef';
    expect(parseRoute(paths.review(caseId))).toEqual({ page: 'review', caseId });
  });

  it('falls back to Maintenance on anything it does not know', () => {
    expect(parseRoute('#/reviews/not-a-case')).toEqual({ page: 'maintenance' });
    expect(parseRoute('#/reviews?job=<script>')).toEqual({ page: 'maintenance' });
    expect(parseRoute('')).toEqual({ page: 'maintenance' });
  });
});
