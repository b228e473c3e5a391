import { describe, expect, it } from 'vitest';
import { createHmac, randomBytes } from 'node:crypto';
import { hmacKey, hmacSha256 } from '../../../engine/blocking/hmac-sha256.ts';

describe('HMAC-SHA256 with precomputed pads', () => {
  it('matches RFC 4231 test case 2', () => {
    // RFC 4231 §4.3: key "Jefe", data "what do ya want for nothing?".
    expect(hmacSha256(hmacKey(Buffer.from('Jefe')), 'what do ya want ', 'for nothing?').toString('hex')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('equals node:crypto createHmac for random keys (short, block-sized and long) and messages, and reuses a key safely', () => {
    for (const keyLength of [1, 16, 32, 63, 64, 65, 131]) {
      const secret = randomBytes(keyLength);
      const key = hmacKey(secret);
      for (let i = 0; i < 50; i++) {
        const message = randomBytes(1 + (i * 7) % 90).toString('base64');
        expect(hmacSha256(key, message).equals(createHmac('sha256', secret).update(message).digest())).toBe(true);
      }
    }
  });
});
