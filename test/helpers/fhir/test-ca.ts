/**
 * A test CA and a server certificate for 127.0.0.1 and localhost, generated at test time (never committed),
 * with selfsigned. The CA's PEM goes to a file the source configuration names as its TrustedCaFile.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface TestTls {
  readonly caFile: string;
  readonly caPem: string;
  readonly key: string;
  readonly cert: string;
}

export async function testTls(dir: string): Promise<TestTls> {
  const ca = await generate([{ name: 'commonName', value: 'mpi-console test CA' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const server = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  const caFile = join(dir, 'test-ca.pem');
  writeFileSync(caFile, ca.cert, { mode: 0o600 });
  return { caFile, caPem: ca.cert, key: server.private, cert: server.cert };
}
