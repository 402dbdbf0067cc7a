import { z } from 'zod';

/** Value schemas several sections of `gateway.yaml` share, and checks of the environment reuse. */

export const int = (min: number, max: number) => z.int().min(min).max(max);
export const port = int(0, 65_535);
export const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/**
 * A URL the gateway sends requests to. Credentials in it (`http://user:pw@host`) would never be
 * sent: fetch refuses such a URL and http-proxy-3 drops them, so the key set would never load or
 * the upstream would refuse every request, far from the cause. Refused here, by name.
 */
export const requestUrl = url.refine((value) => !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(value), {
  error: 'must not carry credentials (user:password@): they would not be sent',
});

/**
 * Documentation of a key the file may leave unset for another source to fill (the environment,
 * another key): `defaultText` says where the value then comes from (docs/configuration.md).
 */
export function documented(description: string, defaultText: string) {
  return { description, defaultText };
}
