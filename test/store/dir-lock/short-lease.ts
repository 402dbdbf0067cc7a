/**
 * Preloaded (`node --import`) into a tokengate process under test: its store lock renews and
 * expires on TEST_LOCK_LEASE ("renewMs,leaseMs") instead of 5 s and 30 s, so that a test can wait
 * a lease out. Nothing in tokengate reads that variable.
 */
import { DEFAULT_LEASE } from '../../../src/store/dir-lock-lease.ts';

const [renewMs, leaseMs] = (process.env['TEST_LOCK_LEASE'] ?? '').split(',').map(Number);
if (!renewMs || !leaseMs) throw new Error('TEST_LOCK_LEASE must be "renewMs,leaseMs"');
Object.assign(DEFAULT_LEASE, { renewMs, leaseMs });
