import { expect } from 'vitest';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';

export interface PortalResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/**
 * A person's browser reduced to HTTP: keeps the portal's cookies, reads the CSRF token from
 * the last page shown, and posts forms the way a same-origin page does.
 */
export class PortalClient {
  /** Where the next request goes: tests of replicas move it, as a load balancer would. */
  base: string;
  readonly cookies = new Map<string, string>();
  lastPage = '';
  constructor(base: string) {
    this.base = base;
  }

  async request(
    method: string,
    path: string,
    init: { form?: Record<string, string | string[]>; headers?: Record<string, string> } = {},
  ): Promise<PortalResponse> {
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size > 0) headers['cookie'] = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: URLSearchParams | undefined;
    if (init.form) {
      body = new URLSearchParams();
      for (const [k, v] of Object.entries(init.form)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(`${this.base}${path}`, { method, headers, redirect: 'manual', ...(body ? { body } : {}) });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    if (res.headers.get('content-type')?.startsWith('text/html')) this.lastPage = text;
    return { status: res.status, headers: res.headers, text };
  }

  get(path: string) {
    return this.request('GET', path);
  }

  /** Posts a form with the CSRF token of the last page shown (as the browser would). */
  post(path: string, form: Record<string, string | string[]> = {}, headers: Record<string, string> = {}) {
    return this.request('POST', path, { form: { csrf_token: this.csrfToken(), ...form }, headers });
  }

  csrfToken(): string {
    return /name="csrf_token" value="([^"]+)"/.exec(this.lastPage)?.[1] ?? '';
  }

  async signIn(adminToken: string): Promise<PortalResponse> {
    await this.get('/console/login');
    return this.post('/console/login', { admin_token: adminToken });
  }

  /** Follows a 303 the way a browser does after a POST. */
  async follow(res: PortalResponse): Promise<PortalResponse> {
    expect(res.status).toBe(303);
    return this.get(res.headers.get('location') ?? '');
  }
}

export async function startPortal(): Promise<{ t: TestUpstream; client: () => PortalClient }> {
  const t = await startTestUpstream({ routes: [] });
  return { t, client: () => new PortalClient(t.upstream.adminUrl) };
}

/** A console on a fresh upstream, with a client signed in with the operator's admin token. */
export async function startSignedInConsole(): Promise<{ t: TestUpstream; c: PortalClient }> {
  const { t, client } = await startPortal();
  const c = client();
  await c.signIn(t.adminToken);
  return { t, c };
}

/** Creates a project through the portal's form; returns its id (from the redirect). */
export async function createProjectViaPortal(c: PortalClient, name: string, plan: string): Promise<string> {
  await c.get('/console/projects');
  const res = await c.post('/console/projects', { name, plan });
  expect(res.status).toBe(303);
  const location = res.headers.get('location') ?? '';
  await c.get(location);
  return decodeURIComponent(location.split('/').pop() ?? '');
}
