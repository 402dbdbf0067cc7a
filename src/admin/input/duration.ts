import { z } from 'zod';

/** What each unit of a duration is worth, in ms. */
const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 } as const;

/** The longest overlap of a secret rotation: 30 days. */
export const MAX_OVERLAP_MS = 30 * UNIT_MS.d;

/** The overlap when none is given: 24 hours. */
export const DEFAULT_OVERLAP_MS = UNIT_MS.d;

/** Longer text is no duration we take (`30d` is 3 characters; `2592000s` 8). */
const MAX_LENGTH = 32;

/** `0`, or whole numbers with units in decreasing order, each unit once: `24h`, `1h30m`, `2s`, `30d`. */
const SHAPE = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

/**
 * A duration as an operator writes it (`--overlap 24h`) in ms, or a sentence saying what is
 * wrong with it. Never throws, whatever the text: the admin API takes it from a request body.
 */
export function parseDuration(text: string): number | string {
  const expected = 'a duration such as 24h, 90m, 1h30m, 45s or 7d, or 0';
  if (text.length > MAX_LENGTH) return `expected ${expected} (at most ${MAX_LENGTH} characters)`;
  if (text === '0') return 0;
  const match = SHAPE.exec(text);
  if (!match || text === '') return `expected ${expected}, not ${JSON.stringify(text)}`;
  const [, d, h, m, s] = match;
  return [d, h, m, s].reduce<number>((total, count, i) => total + Number(count ?? 0) * Object.values(UNIT_MS)[i]!, 0);
}

/**
 * The overlap of a secret rotation: a duration of at most 30 days; `0` ends the previous secret at
 * once. Absent, the default (24 h) applies.
 */
export const overlapSchema = z.string({ error: 'overlap: must be a string such as "24h"' }).transform((text, ctx) => {
  const ms = parseDuration(text);
  if (typeof ms === 'string') {
    ctx.addIssue({ code: 'custom', message: `overlap: ${ms}` });
    return z.NEVER;
  }
  if (ms > MAX_OVERLAP_MS) {
    ctx.addIssue({ code: 'custom', message: `overlap: at most 30 days (30d), not ${JSON.stringify(text)}` });
    return z.NEVER;
  }
  return ms;
});
