export * from './errors.ts';
export * from './fields.ts';
export * from './profile.ts';
export * from './matching.ts';
export * from './ingest.ts';
export * from './operations.ts';
export * from './maintenance.ts';
export * from './assurance.ts';
