import { planAllowsOAuth } from '#common';
import { ClientRevocationError } from '#issuer';
import { isWellFormedId } from '#store';
import { AdminError, conflict, notFound } from '#admin';
import { nameField, readJsonObject, scopesField } from './input.ts';
import { type AdminContext, type AdminRoute, ok, type Params, requireProject } from './route.ts';
import { clientView } from './views.ts';

export const clientRoutes: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/projects/:id/clients',
    async handle(ctx, req, params) {
      const project = await requireProject(ctx, req, params['id']);
      const body = await readJsonObject(req);
      const input = { projectId: project.id, name: nameField(body), scopes: scopesField(body) };
      if (!planAllowsOAuth(project.plan)) {
        throw conflict(
          `project plan "${project.plan}" does not allow OAuth clients: only business and enterprise plans do`,
        );
      }
      const created = await ctx.issuer.createClient(input);
      ctx.log.info({ projectId: project.id, clientId: created.client.clientId }, 'admin: client created');
      // The secret is shown here once; only its hash is stored.
      const { client_id, ...rest } = clientView(created.client);
      return ok({ client_id, client_secret: created.clientSecret, ...rest }, 201);
    },
  },
  {
    method: 'GET',
    path: '/projects/:id/clients',
    async handle(ctx, req, params) {
      const project = await requireProject(ctx, req, params['id']);
      return ok((await ctx.store.listClients(project.id)).map(clientView));
    },
  },
  { method: 'POST', path: '/clients/:id/disable', handle: (ctx, _req, params) => setEnabled(ctx, params, false) },
  { method: 'POST', path: '/clients/:id/enable', handle: (ctx, _req, params) => setEnabled(ctx, params, true) },
];

/**
 * Disabling revokes the client's outstanding tokens (the issuer does it). A disable stored without
 * its revocation answers 500 saying so, so the operator disables again instead of trusting it.
 */
async function setEnabled(ctx: AdminContext, params: Params, enabled: boolean) {
  const id = params['id'] ?? '';
  const client = isWellFormedId(id)
    ? await ctx.issuer.setClientEnabled(id, enabled).catch((error: unknown) => halfDisabled(ctx, id, error))
    : null;
  if (!client) throw notFound('client', id);
  ctx.log.info({ clientId: id, enabled }, 'admin: client enabled changed');
  return ok({ client_id: client.clientId, enabled: client.enabled });
}

function halfDisabled(ctx: AdminContext, clientId: string, error: unknown): never {
  if (!(error instanceof ClientRevocationError)) throw error;
  ctx.log.error({ err: error.cause, clientId }, 'admin: client disabled, but revoking its outstanding tokens failed');
  throw new AdminError('internal_error', error.message);
}
