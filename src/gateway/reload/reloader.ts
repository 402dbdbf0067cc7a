import type { Logger } from '#common';
import { ConfigError } from '#common';
import type { GatewayConfig } from '../config/gateway-config.ts';
import type { Generation } from '../server/generation.ts';
import type { AuthRuntime } from '../verification/runtime.ts';
import { authChanged, sectionsNeedingRestart } from './needs-restart.ts';

/** Discriminated by `ok`, as every result (#common `Result`); `problems` is empty on success. */
export type ReloadResult =
  | { readonly ok: true; readonly problems: readonly [] }
  | { readonly ok: false; readonly problems: readonly string[] };

export interface ReloadDeps {
  readonly log: Logger;
  current(): Generation;
  /** Reads and validates the file (throws ConfigError). */
  load(): GatewayConfig;
  newAuth(config: GatewayConfig): AuthRuntime;
  /** Builds the new generation and makes it current; retires the old one. */
  swap(config: GatewayConfig, auth: AuthRuntime): void;
  /** Reads what the listener needs anew (the TLS certificate); throws if it is unusable. Returns what applies it. */
  prepareListener?(config: GatewayConfig): (() => void) | undefined;
  /** How long a changed issuer section may take to load keys and revocations. */
  readonly readyTimeoutMs?: number;
}

export interface Reloader {
  /** Never rejects: any failure keeps the running configuration and resolves `ok: false`. */
  reload(next?: GatewayConfig): Promise<ReloadResult>;
  /** Refuses every later reload, cuts short one waiting for its new verifier, waits until none runs. */
  close(): Promise<void>;
}

/**
 * Load → validate → read the TLS files → (new verifier ready, if the issuer settings changed)
 * → swap. Any failure keeps the running configuration and says why. Reloads run one at a time,
 * in order. Once the gateway closes, nothing is swapped in: a new verifier would be left running
 * with no owner.
 */
export function createReloader(deps: ReloadDeps): Reloader {
  const { log } = deps;
  const readyMs = deps.readyTimeoutMs ?? 15_000;
  const closing = new AbortController();
  let queue: Promise<unknown> = Promise.resolve();
  // What the process started with: a reload can change the listener, metrics and workers only by
  // a restart, so these are compared with what runs, not with the last file reloaded (a change
  // reloaded and then undone is no longer pending; one kept stays pending on every reload).
  const started = deps.current().config;

  const refuse = (problems: readonly string[]): ReloadResult => {
    log.error({ problems }, 'config reload refused; keeping the running configuration');
    return { ok: false, problems };
  };

  async function reloadOnce(next?: GatewayConfig): Promise<ReloadResult> {
    if (closing.signal.aborted) return refuse([CLOSED]);
    const old = deps.current();
    let candidate: GatewayConfig;
    try {
      candidate = next ?? deps.load();
    } catch (error) {
      return refuse(error instanceof ConfigError ? error.problems : [String(error)]);
    }
    let applyListener: (() => void) | undefined;
    try {
      applyListener = deps.prepareListener?.(candidate);
    } catch (error) {
      return refuse([error instanceof Error ? error.message : String(error)]);
    }
    const restart = sectionsNeedingRestart(started, candidate);
    if (restart.length > 0)
      log.warn({ sections: restart }, 'config reload: these sections take effect only after a restart');
    let auth = old.auth;
    if (authChanged(old.config, candidate)) {
      auth = deps.newAuth(candidate);
      // Swap only to a verifier that has keys and revocations; never wait forever for one.
      const ready = await readyWithin(auth, readyMs, closing.signal);
      if (!ready || closing.signal.aborted) {
        auth.close();
        return refuse([
          closing.signal.aborted
            ? CLOSED
            : `new issuer settings not ready within ${readyMs / 1000} s (keys or revocation feed unreachable)`,
        ]);
      }
    }
    try {
      deps.swap(candidate, auth);
    } catch (error) {
      if (auth !== old.auth) auth.close();
      return refuse([String(error)]);
    }
    applyListener?.();
    if (auth !== old.auth) old.auth.close();
    log.info({ routes: candidate.routes.length }, 'config reloaded');
    return { ok: true, problems: [] };
  }

  return {
    reload(next) {
      // The catch is for what reloadOnce does not expect to fail (building a verifier).
      const run = queue.then(() => reloadOnce(next)).catch((error: unknown) => refuse([String(error)]));
      queue = run;
      return run;
    },
    async close() {
      closing.abort();
      await queue;
    },
  };
}

const CLOSED = 'the gateway is closing';

async function readyWithin(auth: AuthRuntime, ms: number, cancel: AbortSignal): Promise<boolean> {
  let stop = (): void => undefined;
  const stopped = new Promise<boolean>((resolve) => {
    stop = () => resolve(false);
  });
  const timer = setTimeout(stop, ms);
  cancel.addEventListener('abort', stop);
  if (cancel.aborted) stop();
  const ready = auth.ready().then(
    () => true,
    () => false,
  );
  const result = await Promise.race([ready, stopped]);
  clearTimeout(timer);
  cancel.removeEventListener('abort', stop);
  return result;
}
