import { type Logger, limitsOverrideSchema, PLANS } from '#common';
import { z } from 'zod';
import type { PolicyBook, ProjectPolicy } from './policy-book.ts';
import type { UpstreamChannel } from './upstream-channel.ts';

const feedBody = z.object({
  projects: z.array(z.object({ id: z.string(), plan: z.enum(PLANS), override: limitsOverrideSchema.nullable() })),
  api_keys: z.array(z.object({ key: z.string(), project_id: z.string() })),
});

export const POLICY_PATH = '/internal/rate-limits';

/**
 * Polls the upstream's policy feed every `refreshMs`: each project's plan and override (into the
 * policy book) and each API key's project (so key/secret calls count against their project). An
 * unchanged feed answers 304 with no body. Failures keep the last policies and are logged once
 * per change of state.
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
  let etag = '';
  let failing = false;
  async function poll(): Promise<void> {
    try {
      const res = await channel.request(POLICY_PATH, { headers: etag ? { 'if-none-match': etag } : {} });
      if (res.status === 304) return void (await res.arrayBuffer());
      if (!res.ok) throw new Error(`status ${res.status}`);
      const body = feedBody.parse(await res.json());
      const policies = new Map<string, ProjectPolicy>();
      for (const p of body.projects) policies.set(p.id, { plan: p.plan, override: p.override });
      book.replace(policies);
      keyProjects.clear();
      for (const k of body.api_keys) keyProjects.set(k.key, k.project_id);
      etag = res.headers.get('etag') ?? '';
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
