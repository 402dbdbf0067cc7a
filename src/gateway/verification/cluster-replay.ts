import cluster, { type Worker } from 'node:cluster';
import { createMemoryReplayCache, type DpopReplayCache } from '#auth';

/** A worker asks the primary to record an accepted proof. */
interface ClaimRequest {
  readonly type: 'tokengate:dpop-claim';
  readonly id: number;
  readonly key: string;
  readonly expiresAtMs: number;
}

/** The primary's answer: whether this was the first time the proof was seen. */
interface ClaimAnswer {
  readonly type: 'tokengate:dpop-claimed';
  readonly id: number;
  readonly fresh: boolean;
}

/** Longest wait for the primary's answer; past it the proof is refused (a replay must never pass). */
const CLAIM_TIMEOUT_MS = 1_000;

/**
 * In the cluster primary: one in-memory replay cache for all the workers, which would otherwise
 * each keep their own, and accept a proof replayed on a connection another worker takes. Returns
 * the function that stops answering.
 */
export function serveReplayClaims(now: () => number = Date.now): () => void {
  const seen = createMemoryReplayCache(now);
  const onMessage = (worker: Worker, message: unknown) => {
    if (!isClaimRequest(message)) return;
    void Promise.resolve(seen.claim(message.key, message.expiresAtMs)).then((fresh) => {
      const answer: ClaimAnswer = { type: 'tokengate:dpop-claimed', id: message.id, fresh };
      // A worker that exited meanwhile needs no answer.
      if (worker.isConnected()) worker.send(answer, () => undefined);
    });
  };
  cluster.on('message', onMessage);
  return () => void cluster.off('message', onMessage);
}

/**
 * In a cluster worker: the primary's replay cache (serveReplayClaims), one IPC round trip per
 * accepted proof. Fails closed: with no answer in time, or no channel, the proof is refused.
 */
export function createClusterReplayCache(timeoutMs = CLAIM_TIMEOUT_MS): DpopReplayCache & { close(): void } {
  let lastId = 0;
  const waiting = new Map<number, (fresh: boolean) => void>();
  const onMessage = (message: unknown) => {
    if (isClaimAnswer(message)) waiting.get(message.id)?.(message.fresh);
  };
  process.on('message', onMessage);
  return {
    claim(key, expiresAtMs) {
      return new Promise<boolean>((resolve) => {
        const id = ++lastId;
        const finish = (fresh: boolean) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(fresh);
        };
        const timer = setTimeout(() => finish(false), timeoutMs);
        timer.unref();
        waiting.set(id, finish);
        const request: ClaimRequest = { type: 'tokengate:dpop-claim', id, key, expiresAtMs };
        if (!process.connected || process.send === undefined) finish(false);
        else
          process.send(request, undefined, {}, (error) => {
            if (error) finish(false);
          });
      });
    },
    close: () => void process.off('message', onMessage),
  };
}

function isClaimRequest(message: unknown): message is ClaimRequest {
  const m = message as Partial<ClaimRequest> | null;
  return (
    m?.type === 'tokengate:dpop-claim' &&
    typeof m.id === 'number' &&
    typeof m.key === 'string' &&
    typeof m.expiresAtMs === 'number'
  );
}

function isClaimAnswer(message: unknown): message is ClaimAnswer {
  const m = message as Partial<ClaimAnswer> | null;
  return m?.type === 'tokengate:dpop-claimed' && typeof m.id === 'number' && typeof m.fresh === 'boolean';
}
