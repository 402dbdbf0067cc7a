import { accountCommands } from './account.ts';
import { addressCommands } from './address.ts';
import { apiKeyCommands } from './apikey.ts';
import { clientCommands } from './client.ts';
import type { AdminCommand } from './command.ts';
import { keyCommands } from './keys.ts';
import { projectCommands } from './project.ts';
import { projectLimitCommands } from './project-limits.ts';
import { apiKeySecretCommands, clientSecretCommands } from './secret.ts';
import { tokenCommands } from './token.ts';
import { userCommands } from './user.ts';

/** Every `tokengate admin <noun> <verb>`, in the order `--help` lists them. */
export const ADMIN_COMMANDS: readonly AdminCommand[] = [
  ...accountCommands,
  ...userCommands,
  ...projectCommands,
  ...projectLimitCommands,
  ...clientCommands,
  ...clientSecretCommands,
  ...tokenCommands,
  ...keyCommands,
  ...apiKeyCommands,
  ...apiKeySecretCommands,
  ...addressCommands,
];
