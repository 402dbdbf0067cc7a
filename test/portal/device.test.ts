import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deviceName } from '../../src/portal/html/device.ts';

describe('the device a session list names from the User-Agent', () => {
  it('names common browsers and systems', () => {
    expect(
      deviceName(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome on Linux');
    expect(deviceName('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe(
      'Firefox on Windows',
    );
    expect(
      deviceName(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari on iOS');
    expect(
      deviceName(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      ),
    ).toBe('Edge on macOS');
    expect(deviceName('curl/8.5.0')).toBe('curl');
    expect(deviceName(null)).toBe('Unknown device');
    expect(deviceName('something else')).toBe('Unknown browser');
  });

  it('answers a short name for any header, never throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), (agent) => {
        expect(deviceName(agent).length).toBeLessThanOrEqual(40);
      }),
    );
  });
});
