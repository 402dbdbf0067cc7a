import { changeCases } from './changes.cases.ts';
import { describeScaleOut } from './fixture.ts';
import { propagationCases } from './propagation.cases.ts';

/**
 * The change and propagation cases share one stack, which costs more CPU to start than most of
 * them take to run (fixture.ts). They cannot see each other's changes: each makes a project (in
 * an account of its own) and clients of its own, and the one key rotation leaves keys both
 * gateways hold (its case checks that). Together they fail 7 and 12 client authentications on
 * replicas 1 and 2 (a run here), under the 20 a minute per source address past which a 401 turns
 * 429 (CASES.md). The change cases go first: the waits for a re-enable, which fail more often the
 * slower the machine, come last.
 */
describeScaleOut('changes made on one replica, on a stack shared by the change and propagation cases', (stack) => {
  changeCases(stack);
  propagationCases(stack);
});
