import { failoverCases } from './failover.cases.ts';
import { describeScaleOut } from './fixture.ts';
import { emergencyRotationCases } from './rotation-emergency.cases.ts';
import { rotationCases } from './rotation.cases.ts';

/**
 * The cases that change the stack itself share one, in this order, rather than start one each
 * (fixture.ts says what one costs):
 * - the ordinary rotation first: it promotes the next key of the first pair, which may sign at
 *   once; after any rotation a next key must be published for minutes first;
 * - the emergency rotations next: they promote whatever next key there is, and their ordinary
 *   rotation is refused either way (its next key is moments old);
 * - the replica kill and restart last, as it leaves replica 2 a new process. It signs and checks
 *   with whatever key the rotations left active, which both gateways hold by then.
 * Each makes a client of its own.
 */
describeScaleOut('key rotations, then a replica killed and restarted, on one stack', (stack) => {
  rotationCases(stack);
  emergencyRotationCases(stack);
  failoverCases(stack);
});
