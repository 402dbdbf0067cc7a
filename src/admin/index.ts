export type { Actor } from './actor.ts';
export { type AddressImport, importAddressData, reloadAddresses } from './addresses.ts';
export { type CreatedApiKey, createApiKey, listApiKeys } from './api-keys.ts';
export type { AdminContext } from './context.ts';
export { createClient, findClient, listClients, setClientEnabled } from './clients.ts';
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
} from './projects.ts';
export {
  type CreateClientInput,
  type CreateProjectInput,
  createClientInput,
  createProjectInput,
  type RevokeTokenInput,
  type RotateKeysInput,
  revokeTokenInput,
  rotateKeysInput,
} from './input/operations.ts';
export { parseInput } from './input/parse.ts';
export { revokeToken } from './tokens.ts';
