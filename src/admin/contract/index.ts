/*
 * The admin contract: the operations of the admin API (method, path, input schema, output view,
 * who may call it) and the typed client over them. Light on purpose: `tokengate admin` loads it
 * without the service, the store or the issuer (only their types).
 */
export {
  type AdminClient,
  type AdminTransport,
  type Answer,
  type AnswerOf,
  type CallArgs,
  createAdminClient,
} from './client.ts';
export type { Access, Method, Operation, Parent, RunArgs } from './operation.ts';
export { ADMIN_OPERATIONS, type AdminOperations, type OperationName } from './table.ts';
export type { View } from './views.ts';
