import { OutgoingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { sfDictionary, sfValue } from '../../../src/gateway/proxy/passes/structured-field.ts';

describe('structured field serialisation (RFC 9651)', () => {
  it('writes printable ASCII as an sf-string, escaping only quote and backslash', () => {
    expect(sfValue('cli_AZaz09-_')).toBe('"cli_AZaz09-_"');
    expect(sfValue('a "b" \\ c %')).toBe('"a \\"b\\" \\\\ c %"');
    expect(sfValue('')).toBe('""');
  });

  it('writes anything else as a display string of percent-encoded UTF-8', () => {
    expect(sfValue('café')).toBe('%"caf%c3%a9"');
    expect(sfValue('a\r\nb')).toBe('%"a%0d%0ab"');
    // Once it is a display string, % and " are encoded too (§4.1.11).
    expect(sfValue('50% "ü"')).toBe('%"50%25 %22%c3%bc%22"');
    expect(sfValue('\u{1f511}\t')).toBe('%"%f0%9f%94%91%09"');
  });

  it('joins dictionary members in order', () => {
    expect(
      sfDictionary([
        ['a', 'x'],
        ['b_c', 'ü'],
      ]),
    ).toBe('a="x", b_c=%"%c3%bc"');
  });

  it('always yields a value Node accepts as a header', () => {
    const message = new OutgoingMessage();
    for (const value of ['plain', 'a\r\nb', '\u0000\u007f', 'ü€\u{1f511}', '"\\"', 'x'.repeat(1000)]) {
      expect(() => message.setHeader('x-test', sfValue(value))).not.toThrow();
    }
  });
});
