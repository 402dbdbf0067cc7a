export type { Actor } from './actor.ts';
export type { AdminContext } from './context.ts';
export { createClient, findClient, listClients, type NewClient, setClientEnabled } from './clients.ts';
export { AdminError, asAdminError, badRequest, conflict, notFound } from './errors.ts';
export {
  createProject,
  deleteProject,
  findProject,
  getProject,
  listProjects,
  type NewProject,
} from './projects.ts';
