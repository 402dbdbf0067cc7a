import { z } from 'zod';
import { nameSchema } from './name.ts';
import { planSchema } from './plan.ts';

const NOT_AN_OBJECT = 'body must be a JSON object';

/** An account: a name (the customer's, same rules as a project's) and its plan. */
export const createAccountInput = z
  .object({ name: nameSchema, plan: planSchema }, { error: NOT_AN_OBJECT })
  .brand<'CreateAccountInput'>();
export type CreateAccountInput = z.output<typeof createAccountInput>;

export const accountPlanInput = z.object({ plan: planSchema }, { error: NOT_AN_OBJECT }).brand<'AccountPlanInput'>();
export type AccountPlanInput = z.output<typeof accountPlanInput>;

/** A project in an existing account: only its name (the plan is the account's). */
export const accountProjectInput = z
  .object({ name: nameSchema }, { error: NOT_AN_OBJECT })
  .brand<'AccountProjectInput'>();
export type AccountProjectInput = z.output<typeof accountProjectInput>;
