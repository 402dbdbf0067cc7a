import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUpstream } from '../upstream/upstream-fixture.ts';
import { type PortalClient, startPortal } from './console-client.ts';

describe('portal assets', () => {
  let t: TestUpstream;
  let client: () => PortalClient;
  beforeAll(async () => {
    ({ t, client } = await startPortal());
  });
  afterAll(async () => {
    await t?.destroy();
  });

  /** The versioned URLs a page links its stylesheet, scripts and icon by. */
  async function linked(c: PortalClient): Promise<string[]> {
    const page = await c.get('/console/login');
    return [...page.text.matchAll(/(?:href|src)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1] as string);
  }

  it('links every asset by its content version and lets the browser keep it until it changes', async () => {
    const c = client();
    const urls = await linked(c);
    expect(urls.map((u) => u.replace(/\?v=[A-Za-z0-9_-]{16}$/, ''))).toEqual([
      '/console/assets/favicon.svg',
      '/console/assets/portal.css',
      '/console/assets/app.js',
    ]);
    for (const url of urls) {
      const res = await c.get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('cache-control'), url).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('etag'), url).toBe(`"${url.split('?v=')[1]}"`);
      expect(res.headers.get('x-content-type-options'), url).toBe('nosniff');
    }
  });

  it('has an unversioned or outdated URL revalidated, and answers a matching If-None-Match with 304 and no body', async () => {
    const c = client();
    const css = (await linked(c)).find((u) => u.includes('portal.css')) as string;
    const version = css.split('?v=')[1] as string;
    for (const url of ['/console/assets/portal.css', '/console/assets/portal.css?v=AAAAAAAAAAAAAAAA']) {
      const res = await c.get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('cache-control'), url).toBe('no-cache');
    }
    for (const tag of [`"${version}"`, `W/"${version}"`, `"other", "${version}"`, '*']) {
      const res = await c.request('GET', css, { headers: { 'if-none-match': tag } });
      expect(res.status, tag).toBe(304);
      expect(res.text, tag).toBe('');
      expect(res.headers.get('etag')).toBe(`"${version}"`);
    }
    const changed = await c.request('GET', css, { headers: { 'if-none-match': '"older-version"' } });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('{');
  });
});
