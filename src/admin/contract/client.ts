import { z } from 'zod';
import type { Method, Operation } from './operation.ts';
import { ADMIN_OPERATIONS, type AdminOperations, type OperationName } from './table.ts';

/**
 * Sends one request to the admin API and resolves with its parsed JSON answer (undefined for an
 * empty body); a refusal rejects, in the caller's terms (the CLI's: a line for the operator).
 */
export type AdminTransport = (method: Method, path: string, body?: unknown) => Promise<unknown>;

/** The members of an input by name; their values are the server's to check (it parses them with the schema). */
type Wire<T> = { readonly [K in keyof T]: unknown };
type IdArg<P extends string> = P extends `${string}:id${string}` ? { readonly id: string } : unknown;
type InputArg<I> = I extends z.ZodType
  ? object extends z.input<I>
    ? { readonly input?: Wire<z.input<I>> | undefined }
    : { readonly input: Wire<z.input<I>> }
  : unknown;

export type CallArgs<Op> = Op extends Operation<infer P, infer I, z.ZodType> ? IdArg<P> & InputArg<I> : never;
export type Answer<Op> = Op extends Operation<string, infer _I, infer O> ? z.output<O> : never;

/** What the client's call for operation N resolves with: its output view. */
export type AnswerOf<N extends OperationName> = Answer<AdminOperations[N]>;

type Call<Op> =
  object extends CallArgs<Op>
    ? (args?: CallArgs<Op>) => Promise<Answer<Op>>
    : (args: CallArgs<Op>) => Promise<Answer<Op>>;

/** One typed call per admin operation: `client.createAccount({input: {name, plan}})` resolves with the account view. */
export type AdminClient = { readonly [K in OperationName]: Call<AdminOperations[K]> };

/** `unexpected` builds the error for an answer that is not the operation's view. */
export function createAdminClient(send: AdminTransport, unexpected: (message: string) => Error): AdminClient {
  const calls = Object.entries(ADMIN_OPERATIONS).map(([name, op]: [string, Operation]) => {
    const call = async (args: { readonly id?: string; readonly input?: Readonly<Record<string, unknown>> } = {}) => {
      const path = op.path.replace(':id', encodeURIComponent(args.id ?? ''));
      const answer =
        op.method === 'GET' ? await send(op.method, path + query(args.input)) : await send(op.method, path, args.input);
      const view = op.output.safeParse(answer);
      if (view.success) return view.data;
      const expected = op.output instanceof z.ZodArray ? 'a JSON array' : 'a JSON object';
      throw unexpected(`the admin API answered with an unexpected body (expected ${expected})`);
    };
    return [name, call] as const;
  });
  // One call per entry of the table AdminClient maps over: the same keys, each typed by its entry.
  return Object.freeze(Object.fromEntries(calls)) as unknown as AdminClient;
}

/** A GET's input as its query: `?month=2026-11`; members left undefined are left out. */
function query(input: Readonly<Record<string, unknown>> | undefined): string {
  const pairs = Object.entries(input ?? {}).filter(([, value]) => value !== undefined);
  if (pairs.length === 0) return '';
  return `?${pairs.map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`).join('&')}`;
}
