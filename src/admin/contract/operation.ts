import type { z } from 'zod';
import type { Actor } from '../actor.ts';
import type { AdminService } from '../service.ts';

export type Method = 'GET' | 'POST' | 'DELETE';

/**
 * Who may call an operation: the operator alone, or also a person of the account whose role
 * allows it (`read`: viewers up, `write`: developers up, `owner`). The service enforces it; the
 * admin API is the operator's (every route wants the admin token), the portal a person's.
 */
export type Access = 'operator' | 'read' | 'write' | 'owner';

/** The record the path's `:id` names, looked up before the body is read: an unknown one is a 404 whatever the body holds. */
export type Parent = 'account' | 'project';

/** The schema of an operation's input: the JSON body of a POST, the query of a GET. */
export type InputSchema = z.ZodType | undefined;

/** What `run` receives: the path's `:id` ('' when it has none) and the parsed input. */
export interface RunArgs<I extends InputSchema> {
  readonly id: string;
  readonly input: I extends z.ZodType ? z.output<I> : undefined;
}

/** One admin operation: how it is called over HTTP, what it takes and answers, and which service call it is. */
export interface Operation<
  P extends string = string,
  I extends InputSchema = InputSchema,
  O extends z.ZodType = z.ZodType,
> {
  readonly method: Method;
  /** find-my-way syntax; at most one parameter, `:id`. */
  readonly path: P;
  readonly access: Access;
  /** What it does, in a sentence or two: the admin API's reference and `tokengate admin --help` say it. */
  readonly summary: string;
  readonly input: I;
  /** The view the answer holds (see views.ts). */
  readonly output: O;
  readonly status: 200 | 201;
  readonly parent: Parent | undefined;
  run(service: AdminService, actor: Actor, args: RunArgs<I>): Promise<z.input<O>>;
}

type Spec<P extends string, I extends InputSchema, O extends z.ZodType> = Pick<
  Operation<P, I, O>,
  'method' | 'path' | 'access' | 'summary' | 'output' | 'run'
> &
  Partial<Pick<Operation<P, I, O>, 'input' | 'status' | 'parent'>>;

/** An operation with the defaults filled in: no input, 200, no parent to look up first. */
export function operation<const P extends string, O extends z.ZodType, I extends InputSchema = undefined>(
  spec: Spec<P, I, O>,
): Operation<P, I, O> {
  return { status: 200, parent: undefined, input: undefined as I, ...spec };
}
