import type { IncomingMessage } from 'node:http';
import { AdminError } from '#admin';
import { readBody } from '#common';
import { z } from 'zod';

/** Each operation's own schema (#admin `input/`) then checks the members. */
const jsonObject = z.record(z.string(), z.unknown());

/** Admin bodies are tiny: a name, a plan, a scope list, one token. */
export const ADMIN_BODY_LIMIT = 16 * 1024;

/** Reads a bounded JSON object body; an empty body is `{}`. Past the limit: BodyTooLargeError (413). */
export async function readJsonObject(req: IncomingMessage): Promise<Readonly<Record<string, unknown>>> {
  const raw = await readBody(req, ADMIN_BODY_LIMIT);
  if (raw.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AdminError('invalid_input', 'body must be valid JSON');
  }
  // Checked, not copied: the parsed object goes on as JSON.parse built it (its own members only).
  if (!jsonObject.safeParse(parsed).success) throw new AdminError('invalid_input', 'body must be a JSON object');
  return parsed as Readonly<Record<string, unknown>>;
}
