import { z } from 'zod';

/** An optional boolean: absent is false; anything but true or false is refused. */
export function flagSchema(name: string) {
  return z.boolean({ error: `${name}: must be true or false` }).default(false);
}
