// A worker whose primary never answers its DPoP claims: what does the replay cache decide?
import { createClusterReplayCache } from '../../../src/gateway/verification/cluster-replay.ts';

const replay = createClusterReplayCache(200);
// Two proofs accepted in one event-loop turn: one message carries both.
const fresh = await Promise.all([
  replay.claim('jkt.jti', Date.now() + 60_000),
  replay.claim('jkt.jti2', Date.now() + 60_000),
]);
replay.close();
process.send?.({ type: 'result', fresh }, () => process.disconnect());
