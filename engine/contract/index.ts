export * from './errors.ts';
export * from './fields.ts';
export * from './profile.ts';
export * from './matching.ts';
export * from './ingest.ts';
export * from './operations.ts';
