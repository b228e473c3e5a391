import { describe, expect, it } from 'vitest';
import {
  BATCH_SIZE_MESSAGE,
  toInput,
  validateDraft,
  type StartJobDraft,
} from '../../renderer/pages/maintenance/start-job-form.ts';
import { REASON_MAX } from '../../engine/contract/maintenance.ts';
import { ONE_LINE_MESSAGE } from '../../renderer/one-line-reason.ts';

const draft: StartJobDraft = {
  kind: 'reconciliation',
  reason: 'Thresholds raised after the November evaluation',
  batchSize: 25,
  externalSourceSystem: null,
  changedSince: null,
};

describe('the start form', () => {
  it('accepts a complete draft and sends what the contract takes', () => {
    expect(validateDraft(draft)).toEqual({});
    expect(toInput(draft)).toEqual({
      kind: 'reconciliation',
      input: { reason: 'Thresholds raised after the November evaluation', batchSize: 25 },
    });
  });

  it("takes the reason's bound from the contract", () => {
    expect(validateDraft({ ...draft, reason: 'x'.repeat(REASON_MAX) })).toEqual({});
    expect(validateDraft({ ...draft, reason: 'x'.repeat(REASON_MAX + 1) }).reason).toMatch(
      new RegExp(`up to ${String(REASON_MAX)} characters`),
    );
    expect(validateDraft({ ...draft, reason: '   ' }).reason).toMatch(/Give a reason/);
  });

  it('asks for one line when Enter or a pasted tab put an invisible character in the reason', () => {
    expect(validateDraft({ ...draft, reason: 'Nightly\ncheck' }).reason).toBe(ONE_LINE_MESSAGE);
    expect(validateDraft({ ...draft, reason: 'Nightly\tcheck' }).reason).toBe(ONE_LINE_MESSAGE);
  });

  it('refuses a batch size that is not a whole number from 1 to 25', () => {
    for (const batchSize of [0, 26, 2.5, -3, ''])
      expect(validateDraft({ ...draft, batchSize }).batchSize).toBe(BATCH_SIZE_MESSAGE);
  });
});
