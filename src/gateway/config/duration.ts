import { z } from 'zod';

/** Units a duration string may use, in milliseconds. */
const UNITS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;

/**
 * A duration key of `gateway.yaml` (`connectTimeoutMs`, `maxStaleSec` …): a number in the key's
 * unit, as before, or a string with its own unit, as Envoy, Kong and Go write them: `"500ms"`,
 * `"2s"`, `"5m"`, `"1h"`. The value is turned into a whole number of the key's unit, then checked
 * against the key's bounds; `"1500ms"` for a key in seconds is refused, not rounded. `fallback` is
 * both the schema's default and what the reference page shows (zod leaves the default of a
 * transformed schema out of its JSON Schema).
 */
export function duration(unit: 'ms' | 's', min: number, max: number, fallback: number) {
  const scale = unit === 'ms' ? 1 : 1_000;
  return z
    .union([z.number(), z.string()])
    .transform((value, ctx) => {
      if (typeof value === 'number') return value;
      const match = DURATION.exec(value.trim());
      if (!match) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a number of ${unit === 'ms' ? 'milliseconds' : 'seconds'} or a duration such as "500ms", "2s", "5m" or "1h" (got ${JSON.stringify(value)})`,
        });
        return z.NEVER;
      }
      const amount = (Number(match[1]) * UNITS[match[2] as keyof typeof UNITS]) / scale;
      if (!Number.isInteger(amount)) {
        ctx.addIssue({
          code: 'custom',
          message: `must be whole ${unit === 'ms' ? 'milliseconds' : 'seconds'} (got "${value}")`,
        });
        return z.NEVER;
      }
      return amount;
    })
    .pipe(z.int().min(min).max(max))
    .default(fallback)
    .meta({ durationUnit: unit, minimum: min, maximum: max, defaultText: `\`${fallback}\`` });
}
