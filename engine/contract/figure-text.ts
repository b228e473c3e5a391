/**
 * A threshold or a score as the engine's explanations write it: six significant digits without the zeros that
 * add nothing ("0.962", not "0.962000"; "0.3" for 0.1 + 0.2), the same on every machine. Browser-safe.
 */
export function figureText(value: number): string {
  const [mantissa = '', exponent] = value.toPrecision(6).split('e');
  const trimmed = mantissa.includes('.') ? mantissa.replace(/\.?0+$/, '') : mantissa;
  return exponent === undefined ? trimmed : `${trimmed}e${exponent}`;
}
