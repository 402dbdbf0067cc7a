import { z } from 'zod';

export const NAME_MAX = 100;
const REQUIRED = 'name: required, a non-empty string';

/**
 * A project or client name: trimmed, 1-100 characters, and text that shows as what it is in
 * `client list` and the portal. Checks in this order; the first that fails is the message.
 */
export const nameSchema = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  // UTF-16 units, as the admin API has always counted (and the portal's maxlength does): zod's
  // .max() counts code points, which would take up to twice as long a name.
  .refine((name) => name.length <= NAME_MAX, `name: at most ${NAME_MAX} characters`)
  // Every control character (C0, DEL and C1: U+0085 is a line break, U+009B a terminal escape), so
  // a name cannot break a line or a terminal when `client list` or the portal shows it.
  .refine((name) => !/\p{Cc}/u.test(name), 'name: must not contain control characters')
  // Bidirectional controls (U+202E and kin) reorder the text printed after them, so one name could
  // make a listing show another's ("Trojan Source"). Joiners and variation selectors, which emoji
  // need, are not among them.
  .refine(
    (name) => !/\p{Bidi_Control}/u.test(name),
    'name: must not contain bidirectional controls (U+202A-202E, U+2066-2069, marks)',
  )
  // A lone surrogate (JSON allows "\ud800") would be stored as U+FFFD: a name other than the one sent.
  .refine((name) => name.isWellFormed(), 'name: must be valid Unicode text (no lone surrogate)');
