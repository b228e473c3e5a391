-- How many times in a row a running job was taken over by another worker (its lease had expired) without a
-- batch committing in between. A batch that always outlasts the lease makes workers take the job from each
-- other forever; the runner fails the job once this passes its bound. Reset by every committed batch.
ALTER TABLE maintenance_job ADD COLUMN takeovers INTEGER NOT NULL DEFAULT 0 CHECK (takeovers >= 0);
