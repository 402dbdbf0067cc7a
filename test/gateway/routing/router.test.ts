import { describe, expect, it } from 'vitest';
import type { RouteConfig } from '#gateway';
import { isSafePath } from '../../../src/gateway/routing/path-guard.ts';
import { createRouter } from '../../../src/gateway/routing/router.ts';

function route(path: string, overrides: Partial<RouteConfig> = {}): RouteConfig {
  return {
    path,
    methods: ['GET'],
    auth: 'none',
    scopes: [],
    match: 'any',
    allowKeySecret: false,
    errorFields: {},
    errorShape: 'api',
    ...overrides,
  };
}

const router = createRouter([
  route('/exact'),
  route('/prefix/*', { methods: ['GET', 'POST'] }),
  route('/items/:id', { auth: 'bearer', scopes: ['phone', 'email'], match: 'all' }),
]);

describe('the gateway router', () => {
  it('matches exact, prefix and parameter paths, ignoring the query string', () => {
    expect(router.match('GET', '/exact?q=1')).toMatchObject({ kind: 'route', route: { id: '/exact' } });
    expect(router.match('POST', '/prefix/a/b/c')).toMatchObject({ kind: 'route', route: { id: '/prefix/*' } });
    expect(router.match('GET', '/items/42')).toMatchObject({
      kind: 'route',
      route: { id: '/items/:id', auth: 'bearer', requirement: { scopes: ['phone', 'email'], match: 'all' } },
    });
  });

  it('answers a repeated request exactly as the first time, per method, including refusals', () => {
    for (let i = 0; i < 3; i++) {
      expect(router.match('GET', '/items/7?x=1')).toMatchObject({ kind: 'route', route: { id: '/items/:id' } });
      expect(router.match('DELETE', '/items/7')).toMatchObject({
        kind: 'method_not_allowed',
        route: { id: '/items/:id' },
        allow: ['GET'],
        errorFields: {},
      });
      expect(router.match('GET', '/prefix/../internal/x')).toEqual({ kind: 'bad_path' });
      expect(router.match('GET', '/nowhere')).toEqual({ kind: 'not_found' });
    }
  });

  it('stays correct past its memo bound (random paths cannot grow it)', () => {
    for (let i = 0; i < 3_000; i++)
      expect(router.match('GET', `/prefix/${i}`)).toMatchObject({ kind: 'route', route: { id: '/prefix/*' } });
    expect(router.match('GET', '/exact')).toMatchObject({ kind: 'route', route: { id: '/exact' } });
  });

  it('does not treat an exact path as a prefix', () => {
    expect(router.match('GET', '/exact/more')).toEqual({ kind: 'not_found' });
    expect(router.match('GET', '/exactly')).toEqual({ kind: 'not_found' });
  });

  it('matches every route with a trailing slash too, as the API reference’s curl examples write paths', () => {
    expect(router.match('GET', '/exact/?q=1')).toMatchObject({ kind: 'route', route: { id: '/exact' } });
    expect(router.match('GET', '/items/42/')).toMatchObject({ kind: 'route', route: { id: '/items/:id' } });
    expect(router.match('POST', '/prefix/a/')).toMatchObject({ kind: 'route', route: { id: '/prefix/*' } });
    expect(router.match('DELETE', '/exact/')).toMatchObject({
      kind: 'method_not_allowed',
      route: { id: '/exact' },
      allow: ['GET'],
      errorFields: {},
    });
    expect(router.match('GET', '/exact//')).toEqual({ kind: 'bad_path' });
    expect(router.match('GET', '/exactly/')).toEqual({ kind: 'not_found' });
  });

  it('still sends /x/ to a prefix route /x/* and to a route configured with the slash', () => {
    expect(router.match('GET', '/prefix/')).toMatchObject({ kind: 'route', route: { id: '/prefix/*' } });
    const both = createRouter([route('/a'), route('/a/', { auth: 'bearer' })]);
    expect(both.match('GET', '/a')).toMatchObject({ kind: 'route', route: { id: '/a' } });
    expect(both.match('GET', '/a/')).toMatchObject({ kind: 'route', route: { id: '/a/' } });
  });

  it('answers a known path with another method as 405 with the allowed methods', () => {
    expect(router.match('DELETE', '/prefix/x')).toMatchObject({
      kind: 'method_not_allowed',
      route: { id: '/prefix/*' },
      allow: ['GET', 'POST'],
      errorFields: {},
    });
  });

  it('refuses dot segments, encoded slashes, backslashes and double slashes', () => {
    for (const url of [
      '/prefix/../internal/revocations',
      '/prefix/%2e%2e/internal',
      '/prefix/a%2finternal',
      '/prefix\\..\\internal',
      '//internal/x',
      '/prefix/./a',
    ]) {
      expect(router.match('GET', url)).toEqual({ kind: 'bad_path' });
    }
  });

  it('refuses an encoded backslash or NUL, which a lenient upstream may read as a separator or a string end', () => {
    for (const url of ['/prefix/..%5cinternal', '/prefix/..%5Cinternal', '/prefix/a%00b', '/exact%00']) {
      expect(router.match('GET', url)).toEqual({ kind: 'bad_path' });
    }
  });

  it('keeps ordinary percent-encoded characters', () => {
    expect(isSafePath('/prefix/caf%C3%A9')).toBe(true);
    expect(isSafePath('/prefix/a..b')).toBe(true);
  });
});
