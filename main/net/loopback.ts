import { isIP } from 'node:net';

/**
 * True for a host name that can only reach this machine: `localhost`, 127.0.0.0/8, ::1 (and IPv4-mapped
 * 127.x). Plain HTTP and the development token issuer are allowed there and nowhere else.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const lower = name.toLowerCase();
  if (lower === 'localhost' || lower.endsWith('.localhost')) return true;
  switch (isIP(lower)) {
    case 4:
      return lower.startsWith('127.');
    case 6:
      return lower === '::1' || /^::ffff:127\./.test(lower) || lower === '0:0:0:0:0:0:0:1';
    default:
      return false;
  }
}

/**
 * Refuses a URL whose transport would expose credentials: anything but https, except http to a loopback host
 * or when the development switch allows it; and never user:password@ in the URL.
 */
export function transportProblem(url: URL, allowInsecureHttp: boolean): string | undefined {
  if (url.username !== '' || url.password !== '') return 'the URL must not carry a user name or password';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol !== 'http:') return `the URL must use https (not ${url.protocol.replace(':', '')})`;
  if (isLoopbackHost(url.hostname) || allowInsecureHttp) return undefined;
  return 'plain http is allowed only to a loopback host (localhost, 127.0.0.1, ::1); use https, or the development switch --allow-insecure-http';
}
