import { accountOperations } from './accounts.ts';
import { clientOperations } from './clients.ts';
import { projectOperations } from './projects.ts';
import { secondFactorOperations } from './second-factor.ts';
import { secretOperations } from './secrets.ts';

/**
 * Every admin operation, once: the admin API registers a route for each, the typed client
 * (client.ts) has a call for each, and `tokengate admin` calls them through that client.
 */
export const ADMIN_OPERATIONS = {
  ...accountOperations,
  ...projectOperations,
  ...clientOperations,
  ...secondFactorOperations,
  ...secretOperations,
};

export type AdminOperations = typeof ADMIN_OPERATIONS;
export type OperationName = keyof AdminOperations;
