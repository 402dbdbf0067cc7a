import { describe, expect, it } from 'vitest';
import { createDpopNonces } from '../../src/client/dpop-nonces.ts';

const origin = (i: number) => new URL(`https://api${i}.example.test/x`);
const nonce = (value: string) => new Headers({ 'dpop-nonce': value });

describe('the DPoP nonces a client keeps', () => {
  it('keeps the latest per origin: scheme, host and port, whatever the path', () => {
    const nonces = createDpopNonces();
    nonces.learn(new URL('https://a.example.test/oauth/token'), nonce('n1'));
    nonces.learn(new URL('https://a.example.test/api/x?q=1'), nonce('n2'));
    expect(nonces.get(new URL('https://a.example.test/other'))).toBe('n2');
    expect(nonces.get(new URL('http://a.example.test/other'))).toBeUndefined();
    expect(nonces.get(new URL('https://a.example.test:8443/other'))).toBeUndefined();
  });

  it('keeps at most 100 origins, dropping the one least recently given a nonce', () => {
    const nonces = createDpopNonces();
    for (let i = 0; i < 100; i++) nonces.learn(origin(i), nonce(`n${i}`));
    nonces.learn(origin(0), nonce('n0-again'));
    nonces.learn(origin(100), nonce('n100'));
    expect(nonces.get(origin(0))).toBe('n0-again');
    expect(nonces.get(origin(1))).toBeUndefined();
    expect(nonces.get(origin(100))).toBe('n100');
  });
});
