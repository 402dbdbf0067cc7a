import cluster, { type Worker } from 'node:cluster';
import { createMemoryReplayCache, type DpopReplayCache } from '#auth';

/** A worker asks the primary to record the proofs it accepted in one event-loop turn. */
interface ClaimRequest {
  readonly type: 'tokengate:dpop-claims';
  readonly id: number;
  /** Each proof's replay key and when its entry may go, in the order the answer keeps. */
  readonly keys: readonly string[];
  readonly expiresAtMs: readonly number[];
}

/** The primary's answer: for each proof, whether this was the first time it was seen. */
interface ClaimAnswer {
  readonly type: 'tokengate:dpop-claimed';
  readonly id: number;
  readonly fresh: readonly boolean[];
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
    const { keys, expiresAtMs } = message;
    void Promise.all(keys.map((key, i) => seen.claim(key, expiresAtMs[i] as number))).then((fresh) => {
      const answer: ClaimAnswer = { type: 'tokengate:dpop-claimed', id: message.id, fresh };
      // A worker that exited meanwhile needs no answer.
      if (worker.isConnected()) worker.send(answer, () => undefined);
    });
  };
  cluster.on('message', onMessage);
  return () => void cluster.off('message', onMessage);
}

/**
 * In a cluster worker: the primary's replay cache (serveReplayClaims). The proofs accepted in one
 * event-loop turn go in one message, sent after the turn's sockets are read (setImmediate), and
 * come back in one answer: under load one IPC round trip serves many proofs, each still decided
 * by the one cache every worker shares. Fails closed: with no answer in time, or no channel,
 * every proof of the batch is refused.
 */
export function createClusterReplayCache(timeoutMs = CLAIM_TIMEOUT_MS): DpopReplayCache & { close(): void } {
  let lastId = 0;
  const waiting = new Map<number, (fresh: readonly boolean[] | undefined) => void>();
  let keys: string[] = [];
  let expiresAtMs: number[] = [];
  let settles: Array<(fresh: boolean) => void> = [];
  const onMessage = (message: unknown) => {
    if (isClaimAnswer(message)) waiting.get(message.id)?.(message.fresh);
  };
  process.on('message', onMessage);

  function flush(): void {
    const batch: ClaimRequest = { type: 'tokengate:dpop-claims', id: ++lastId, keys, expiresAtMs };
    const mine = settles;
    keys = [];
    expiresAtMs = [];
    settles = [];
    const finish = (fresh: readonly boolean[] | undefined) => {
      clearTimeout(timer);
      waiting.delete(batch.id);
      // An answer of another length is no answer: refuse the whole batch.
      for (let i = 0; i < mine.length; i++)
        (mine[i] as (f: boolean) => void)(fresh?.length === mine.length && fresh[i] === true);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    timer.unref();
    waiting.set(batch.id, finish);
    if (!process.connected || process.send === undefined) finish(undefined);
    else
      process.send(batch, undefined, {}, (error) => {
        if (error) finish(undefined);
      });
  }

  return {
    claim(key, expires) {
      return new Promise<boolean>((resolve) => {
        if (settles.length === 0) setImmediate(flush);
        keys.push(key);
        expiresAtMs.push(expires);
        settles.push(resolve);
      });
    },
    close: () => void process.off('message', onMessage),
  };
}

function isClaimRequest(message: unknown): message is ClaimRequest {
  const m = message as Partial<ClaimRequest> | null;
  return (
    m?.type === 'tokengate:dpop-claims' &&
    typeof m.id === 'number' &&
    Array.isArray(m.keys) &&
    Array.isArray(m.expiresAtMs) &&
    m.keys.length === m.expiresAtMs.length &&
    m.keys.every((key) => typeof key === 'string') &&
    m.expiresAtMs.every((at) => typeof at === 'number')
  );
}

function isClaimAnswer(message: unknown): message is ClaimAnswer {
  const m = message as Partial<ClaimAnswer> | null;
  return m?.type === 'tokengate:dpop-claimed' && typeof m.id === 'number' && Array.isArray(m.fresh);
}
