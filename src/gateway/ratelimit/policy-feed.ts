import { type Logger, limitsOverrideSchema, PLANS } from '#common';
import { z } from 'zod';
import type { PolicyBook, ProjectPolicy } from './policy-book.ts';
import type { UpstreamChannel } from './upstream-channel.ts';

const project = z.object({ id: z.string(), plan: z.enum(PLANS), override: limitsOverrideSchema.nullable() });
// An upstream of a previous version ignores the cursor and answers only `projects` and
// `api_keys`, everything: read as a full answer, polled again from no cursor.
const feedBody = z.object({
  cursor: z.string().max(100).default(''),
  full: z.boolean().default(true),
  more: z.boolean().default(false),
  projects: z.array(project),
  api_keys: z.array(z.object({ key: z.string(), project_id: z.string() })),
  removed_projects: z.array(z.string()).default([]),
  removed_keys: z.array(z.string()).default([]),
});
type FeedBody = z.infer<typeof feedBody>;

export const POLICY_PATH = '/internal/rate-limits';

/**
 * Polls the upstream's policy feed every `refreshMs` for the changes after its cursor: each
 * project's plan and override (into the policy book) and each usable API key's project (so
 * key/secret calls count against their project). The first poll, and one after a gap (the
 * upstream's change log pruned past the cursor, or another store), reads everything (`full`).
 * Failures keep the last policies and are logged once per change of state.
 */
export function startPolicyFeed(options: {
  readonly channel: UpstreamChannel;
  readonly refreshMs: () => number;
  /** Polled only while true (the configuration has rateLimits). */
  readonly enabled: () => boolean;
  readonly book: PolicyBook;
  readonly keyProjects: Map<string, string>;
  readonly log: Logger;
  readonly signal: AbortSignal;
}): void {
  const { channel, book, keyProjects, log, signal } = options;
  let cursor = '';
  let failing = false;
  /** Applies one answer; true when the upstream has more changes to give at once. */
  function apply(body: FeedBody): boolean {
    const policies = new Map<string, ProjectPolicy>();
    for (const p of body.projects) policies.set(p.id, { plan: p.plan, override: p.override });
    if (body.full) {
      book.replace(policies);
      keyProjects.clear();
    } else book.apply(policies, body.removed_projects);
    for (const key of body.removed_keys) keyProjects.delete(key);
    for (const k of body.api_keys) keyProjects.set(k.key, k.project_id);
    cursor = body.cursor;
    return body.more;
  }
  async function poll(): Promise<void> {
    try {
      let more = true;
      while (more && !signal.aborted) {
        const res = await channel.request(`${POLICY_PATH}?cursor=${encodeURIComponent(cursor)}`, {});
        if (!res.ok) {
          await res.arrayBuffer();
          throw new Error(`status ${res.status}`);
        }
        more = apply(feedBody.parse(await res.json()));
      }
      if (failing) log.info('rate limits: policy feed answers again');
      failing = false;
    } catch (error) {
      if (signal.aborted) return;
      if (!failing) log.warn({ err: String(error) }, 'rate limits: policy feed failed; keeping the last policies');
      failing = true;
    }
  }
  const loop = async () => {
    while (!signal.aborted) {
      if (options.enabled()) await poll();
      await new Promise((resolve) => setTimeout(resolve, options.refreshMs()).unref());
    }
  };
  void loop();
}
