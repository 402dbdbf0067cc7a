import type { AdminCommand } from './command.ts';

/**
 * The command `<noun> <verb…>` names and the positionals after it. A verb may be more than one
 * word (`client secret rotate`): the longest verb whose words begin the positionals wins, so
 * `client secret rotate ID` is never read as a `client secret` command given `rotate ID`.
 */
export function findCommand(
  commands: readonly AdminCommand[],
  positionals: readonly string[],
): { command: AdminCommand; args: string[] } | undefined {
  const [noun, ...rest] = positionals;
  let found: { command: AdminCommand; args: string[] } | undefined;
  for (const command of commands) {
    if (command.noun !== noun) continue;
    const words = command.verb.split(' ');
    if (words.length > rest.length || words.some((word, i) => rest[i] !== word)) continue;
    if (!found || words.length > found.command.verb.split(' ').length)
      found = { command, args: rest.slice(words.length) };
  }
  return found;
}
