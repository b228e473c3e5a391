/**
 * Named crash points for the crash-injection tests: with MPI_FAULT_POINT=NAME (or NAME@N for the Nth time
 * the point is reached) the process kills itself with SIGKILL at that point, exactly as a power cut or an
 * OOM kill would stop it there. Without the variable a crash point costs one comparison. The names are
 * listed where the points are, and in docs/security.md.
 */
const hits = new Map<string, number>();

export function crashPoint(name: string): void {
  const wanted = process.env.MPI_FAULT_POINT;
  if (wanted === undefined || wanted === '' || !wanted.startsWith(name)) return;
  const [point, nth] = wanted.split('@');
  if (point !== name) return;
  const count = (hits.get(name) ?? 0) + 1;
  hits.set(name, count);
  if (count === Number(nth ?? '1')) process.kill(process.pid, 'SIGKILL');
}
