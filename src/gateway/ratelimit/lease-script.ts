/**
 * Draws tokens from one shared bucket, atomically, in one round trip. A Lua script rather than
 * a library: refill, the charge for calls a gateway admitted on credit, and the grant must be
 * one step (two gateways reading the same tokens would both spend them), and no well-kept Node
 * library leases chunks to a local bucket (rate-limiter-flexible counts each call in Redis, a
 * round trip per request, or keeps a purely local "insurance" copy that is not shared).
 *
 * KEYS[1]: the bucket (a hash: tokens, at). ARGV: capacity, window in ms (0: never refills, a
 * quota), tokens wanted, debt (calls already admitted on credit: always charged, so the bucket
 * may go below zero and later calls wait it out), key lifetime in ms. Time is Redis's own
 * (TIME), so gateways' clocks need not agree. Returns {granted, ms until a token is back (-1:
 * never, or tokens were granted), whole tokens left}.
 */
export const LEASE_SCRIPT = `
local cap = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
local debt = tonumber(ARGV[4])
local ttl = tonumber(ARGV[5])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = cap
  at = now
end
if window > 0 and now > at then tokens = tokens + (now - at) * cap / window end
if tokens > cap then tokens = cap end
tokens = tokens - debt
local grant = 0
if tokens >= 1 then grant = math.min(want, math.floor(tokens)) end
tokens = tokens - grant
redis.call('HSET', KEYS[1], 'tokens', string.format('%.6f', tokens), 'at', string.format('%d', now))
redis.call('PEXPIRE', KEYS[1], ttl)
local wait = -1
if grant == 0 and window > 0 then wait = math.ceil((1 - tokens) * window / cap) end
return {grant, wait, math.floor(tokens)}
`;

export type LeaseReply = [granted: number, waitMs: number, left: number];
