import { describe, expect, it } from 'vitest';
import { parseRoute, paths } from '../../renderer/hooks/route-paths.ts';

describe('console routes', () => {
  it('reads every page from its hash and writes the hash back', () => {
    expect(parseRoute(paths.maintenance)).toEqual({ page: 'maintenance' });
    expect(parseRoute(paths.job('job-1234abcd'))).toEqual({ page: 'job', jobId: 'job-1234abcd' });
    expect(parseRoute(paths.assurance)).toEqual({ page: 'assurance' });
    expect(parseRoute(paths.reviews())).toEqual({ page: 'reviews', jobId: null });
    expect(parseRoute(paths.reviews('job-1234abcd'))).toEqual({ page: 'reviews', jobId: 'job-1234abcd' });
    const caseId = 'rc-0123456789abcdef0123456789abcdef';
    expect(parseRoute(paths.review(caseId))).toEqual({ page: 'review', caseId });
    expect(parseRoute(paths.identity('0b7f3a9e-1c2d-4e5f-8a9b-0c1d2e3f4a5b'))).toEqual({
      page: 'identity',
      enterpriseId: '0b7f3a9e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
    });
  });

  it('falls back to Maintenance on anything it does not know', () => {
    expect(parseRoute('#/reviews/not-a-case')).toEqual({ page: 'maintenance' });
    expect(parseRoute('#/reviews?job=<script>')).toEqual({ page: 'maintenance' });
    expect(parseRoute('')).toEqual({ page: 'maintenance' });
  });
});
