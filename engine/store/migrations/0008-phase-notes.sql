-- Every note a job phase makes, not only its first (an import's "N records were not returned by the source;
-- they stay linked" must not hide behind an earlier failed entry's path). Bounded per phase: up to 20 important
-- notes (what the phase concluded) and 50 others (an item each); the notes beyond the bounds are counted in
-- maintenance_job_phase.notes_not_kept. maintenance_job_phase.note keeps the most important one for older readers.
CREATE TABLE maintenance_job_phase_note (
  tenant_id TEXT NOT NULL,
  job_id TEXT NOT NULL,
  ordinal INTEGER NOT NULL,
  seq INTEGER NOT NULL CHECK (seq >= 1),
  important INTEGER NOT NULL CHECK (important IN (0, 1)),
  note TEXT NOT NULL CHECK (length(note) BETWEEN 1 AND 500),
  PRIMARY KEY (tenant_id, job_id, ordinal, seq),
  FOREIGN KEY (tenant_id, job_id, ordinal) REFERENCES maintenance_job_phase (tenant_id, job_id, ordinal)
) STRICT, WITHOUT ROWID;

ALTER TABLE maintenance_job_phase ADD COLUMN notes_not_kept INTEGER NOT NULL DEFAULT 0 CHECK (notes_not_kept >= 0);
