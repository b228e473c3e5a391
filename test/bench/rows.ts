/** One measured figure, with the ceiling measured in the same run beside it so the ratio is visible. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  ceiling?: number;
  ceilingName?: string;
  note?: string;
}
