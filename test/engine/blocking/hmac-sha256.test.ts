import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HmacSha256 } from '../../../engine/blocking/hmac-sha256.ts';
import { createRng } from '../../../engine/synthetic/prng.ts';

const reference = (key: Uint8Array, text: string): string => createHmac('sha256', key).update(text).digest('hex');
const hex = (text: string): Buffer => Buffer.from(text, 'hex');

describe('HmacSha256', () => {
  // RFC 4231, section 4: the test cases whose data is text (cases 3 and 4 hash bytes that are not UTF-8).
  it.each([
    ['1', Buffer.alloc(20, 0x0b), 'Hi There', 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7'],
    [
      '2',
      Buffer.from('Jefe'),
      'what do ya want for nothing?',
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    ],
    [
      '6 (a key longer than a block is hashed first)',
      Buffer.alloc(131, 0xaa),
      'Test Using Larger Than Block-Size Key - Hash Key First',
      '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
    ],
    [
      '7 (and data longer than a block)',
      Buffer.alloc(131, 0xaa),
      'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.',
      '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
    ],
  ])('gives RFC 4231 test case %s', (_, key, data, mac) => {
    expect(new HmacSha256(key).digest(data).toString('hex')).toBe(mac);
  });

  it('truncates as RFC 4231 test case 5 does (128 bits)', () => {
    expect(new HmacSha256(Buffer.alloc(20, 0x0c)).digest('Test With Truncation', 16)).toEqual(
      hex('a3b6167473100ee06e0c796c2955552b'),
    );
  });

  it('equals node:crypto for every message length across three blocks and keys around the block size', () => {
    const rng = createRng(20261129);
    for (const keyLength of [0, 1, 31, 32, 63, 64, 65, 100, 200]) {
      const key = Buffer.from(Array.from({ length: keyLength }, () => rng.int(256)));
      const hmac = new HmacSha256(key);
      for (let length = 0; length <= 200; length++) {
        const text = Array.from({ length }, () => String.fromCharCode(32 + rng.int(95))).join('');
        expect(hmac.digest(text).toString('hex'), `key ${String(keyLength)} bytes, message ${String(length)}`).toBe(
          reference(key, text),
        );
      }
    }
  });

  it('encodes text as UTF-8 the way node:crypto does: accents, other scripts, astral characters, lone surrogates', () => {
    const key = Buffer.alloc(32, 7);
    const hmac = new HmacSha256(key);
    // The last: three bytes a unit, 3,000 bytes from 1,000 units (the buffer must grow by bytes, not units).
    const texts = [
      'Zoë Ó Briain',
      'Łódź',
      '山田太郎',
      'a😀b',
      '\ud800',
      'x\udc00y',
      '\u001e\u001f',
      '\u0000',
      '山'.repeat(1000),
    ];
    for (const text of texts) {
      expect(hmac.digest(text).toString('hex'), JSON.stringify(text)).toBe(reference(key, text));
    }
    const rng = createRng(7);
    for (let n = 0; n < 2_000; n++) {
      const length = rng.int(90);
      const text = String.fromCharCode(...Array.from({ length }, () => rng.int(0x10000)));
      expect(hmac.digest(text).toString('hex')).toBe(reference(key, text));
    }
  });

  it('keeps two keys apart when their calls interleave, and long messages that outgrow the buffer', () => {
    const first = new HmacSha256(Buffer.from('first key'));
    const second = new HmacSha256(Buffer.from('second key'));
    const long = 'SMITH\u001f1980-01-02'.repeat(400);
    for (const text of ['a', long, 'b', `${long}é`.repeat(3), 'c']) {
      expect(first.digest(text).toString('hex')).toBe(reference(Buffer.from('first key'), text));
      expect(second.digest(text).toString('hex')).toBe(reference(Buffer.from('second key'), text));
    }
  });

  it('refuses a digest length outside 1 to 32 bytes', () => {
    const hmac = new HmacSha256(Buffer.alloc(32));
    expect(() => hmac.digest('x', 0)).toThrow(RangeError);
    expect(() => hmac.digest('x', 33)).toThrow(RangeError);
    expect(hmac.digest('x', 1)).toEqual(hex(reference(Buffer.alloc(32), 'x').slice(0, 2)));
  });
});
