import {
  ADMIN_OPERATIONS,
  type AdminOperations,
  type AnswerOf,
  type CallArgs,
  type OperationName,
} from '#admin/contract';
import { noPositionals, idFromArgument } from './args.ts';
import type { AdminCommand, AdminHelp, CommandInput } from './command.ts';

type Request<N extends OperationName> = (
  input: CommandInput,
  command: AdminCommand,
) => CallArgs<AdminOperations[N]> | Promise<CallArgs<AdminOperations[N]>>;

/**
 * A command that is one operation of the contract. Its noun is the usage's first word and its verb
 * the lower-case words after it (`secret rotate`), its help's summary is the operation's; `request` reads the call's id and input from the
 * command line (a usage error for a wrong one), and may be left out by an operation that takes
 * neither (the command then refuses any positional).
 */
export type OperationCommandSpec<N extends OperationName> = {
  readonly usage: string;
  readonly operation: N;
  readonly arguments?: AdminHelp['arguments'];
  readonly options?: AdminHelp['options'];
  readonly dashedValues?: boolean;
  /** What --json prints: the view itself, or the part of it the operator contract names. */
  json?(view: AnswerOf<N>): unknown;
  /** The readable lines. */
  text(view: AnswerOf<N>, input: CommandInput): string;
} & (object extends CallArgs<AdminOperations[N]>
  ? { readonly request?: Request<N> }
  : { readonly request: Request<N> });

export function operationCommand<N extends OperationName>(spec: OperationCommandSpec<N>): AdminCommand {
  // The verb is every lower-case word after the noun: `client secret rotate CLIENT_ID …` has two.
  const [noun = '', ...rest] = spec.usage.split(' ');
  const end = rest.findIndex((word) => !/^[a-z][a-z0-9-]*$/.test(word));
  const verb = (end === -1 ? rest : rest.slice(0, end)).join(' ');
  const help: AdminHelp = {
    summary: ADMIN_OPERATIONS[spec.operation].summary,
    ...(spec.arguments && { arguments: spec.arguments }),
    ...(spec.options && { options: spec.options }),
  };
  const command: AdminCommand = {
    noun,
    verb,
    usage: spec.usage,
    help,
    ...(spec.dashedValues && { dashedValues: true }),
    async run(input) {
      // Without `request` the operation takes no id and no input (the spec's type says so): no arguments.
      const args = spec.request ? await spec.request(input, command) : noPositionals(input, command);
      // The client's call for this operation: TypeScript cannot pair a generic name with its own entry.
      const call = input.api[spec.operation] as (
        args: CallArgs<AdminOperations[N]> | undefined,
      ) => Promise<AnswerOf<N>>;
      const view = await call(args);
      return { json: spec.json ? spec.json(view) : view, text: spec.text(view, input) };
    },
  };
  return command;
}

/** These members of a view, in this order: the operator contract's fields, checked against the view's type. */
export function only<T, K extends keyof T>(view: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, view[key]])) as Pick<T, K>;
}

type ToggleOperation =
  | 'disableAccount'
  | 'enableAccount'
  | 'disableClient'
  | 'enableClient'
  | 'disableApiKey'
  | 'enableApiKey';

/**
 * `<noun> disable ID` and `<noun> enable ID`: the two operations that turn a thing off and on,
 * printing `<what> ID disabled<note>` or `… enabled`.
 */
export function toggleCommands(spec: {
  readonly noun: string;
  /** How the id is named: in the usage (`CLIENT_ID`), in a usage error (`client id`), in the line printed (`client`). */
  readonly id: readonly [placeholder: string, description: string, inError: string, inLine: string];
  readonly disable: ToggleOperation;
  readonly enable: ToggleOperation;
  readonly disabledNote: string;
}): AdminCommand[] {
  const [placeholder, description, inError, inLine] = spec.id;
  return (['disable', 'enable'] as const).map((verb) =>
    operationCommand({
      usage: `${spec.noun} ${verb} ${placeholder} [--json]`,
      operation: spec[verb],
      arguments: { [placeholder]: description },
      request: idFromArgument(inError),
      text: (_view, input) => `${inLine} ${input.args[0] ?? ''} ${verb}d${verb === 'disable' ? spec.disabledNote : ''}`,
    }),
  );
}
