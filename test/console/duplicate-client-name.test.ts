import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUpstream } from '../upstream/upstream-fixture.ts';
import { createProjectViaPortal, type PortalClient, startSignedInConsole } from './console-client.ts';

describe('the portal’s new client form', () => {
  let t: TestUpstream;
  let c: PortalClient;
  beforeAll(async () => {
    ({ t, c } = await startSignedInConsole());
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it('shows the form again with 409 and a message saying the name is taken when the project has a client of that name', async () => {
    const id = await createProjectViaPortal(c, 'Shop', 'business');
    const form = `/console/projects/${id}/credentials/oauth-clients`;
    await c.get(`${form}/new`);
    expect((await c.post(form, { name: 'Checkout', scopes: 'email' })).status).toBe(201);
    await c.get(`${form}/new`);
    const again = await c.post(form, { name: 'checkout', scopes: 'phone' });
    expect(again.status).toBe(409);
    expect(again.text).toContain(
      'Client name: a client named &quot;checkout&quot; already exists in this project (names are compared ignoring case)',
    );
    expect(again.text).toContain('value="checkout"');
    expect(again.text).not.toContain('id="client-secret"');
    expect(((await t.admin('GET', `/projects/${id}/clients`)).body as unknown[]).length).toBe(1);
  });
});
