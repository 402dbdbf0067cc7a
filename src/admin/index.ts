export type { Actor } from './actor.ts';
export { type AddressImport, importAddressData, reloadAddresses } from './addresses.ts';
export { type CreatedApiKey, createApiKey, listApiKeys } from './api-keys.ts';
export type { AdminContext } from './context.ts';
export { createClient, findClient, listClients, type NewClient, setClientEnabled } from './clients.ts';
export {
  ADMIN_ERRORS,
  AdminError,
  type AdminErrorKind,
  asAdminError,
  badRequest,
  conflict,
  notFound,
} from './errors.ts';
export { listKeys, rotateKeys } from './keys.ts';
export {
  createProject,
  deleteProject,
  findProject,
  getProject,
  listProjects,
  type NewProject,
} from './projects.ts';
export { revokeToken, type TokenToRevoke } from './tokens.ts';
