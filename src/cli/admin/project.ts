import { PLANS } from '#common';
import { usageError } from '../cli-error.ts';
import { noPositionals, required, segment, singleId } from './args.ts';
import { planOption } from './account.ts';
import type { AdminCommand, CommandInput, CommandOutput } from './command.ts';
import { asRow, asRows, pick, text } from './shape.ts';
import { table } from './table.ts';

const PROJECT = ['id', 'name', 'plan'] as const;

const create: AdminCommand = {
  noun: 'project',
  verb: 'create',
  usage: `project create --name NAME --plan ${PLANS.join('|')} | --account ACCOUNT_ID [--json]`,
  async run(input) {
    noPositionals(input, create);
    const name = required(input, create, 'name');
    if (input.values.account !== undefined) return createInAccount(input, name);
    const plan = planOption(input, create);
    const project = pick(asRow(await input.api.request('POST', '/projects', { name, plan })), PROJECT);
    return {
      json: project,
      text: `created project ${text(project['id'])} (name: ${text(project['name'])}, plan: ${text(project['plan'])})`,
    };
  },
};

/** In an existing account: the plan is the account's, so `--plan` is refused rather than ignored. */
async function createInAccount(input: CommandInput, name: string): Promise<CommandOutput> {
  const account = required(input, create, 'account');
  if (input.values.plan !== undefined)
    throw usageError('--plan and --account exclude each other: the project takes its account’s plan', create.usage);
  const answer = await input.api.request('POST', `/accounts/${segment(account)}/projects`, { name });
  const project = pick(asRow(answer), [...PROJECT, 'account_id']);
  return {
    json: project,
    text: `created project ${text(project['id'])} (name: ${text(project['name'])}, plan: ${text(project['plan'])}) in account ${text(project['account_id'])}`,
  };
}

const remove: AdminCommand = {
  noun: 'project',
  verb: 'delete',
  usage: 'project delete PROJECT_ID [--json]',
  async run(input) {
    const id = singleId(input, remove, 'project id');
    const answer = pick(asRow(await input.api.request('DELETE', `/projects/${segment(id)}`)), ['id', 'deleted']);
    return { json: answer, text: `deleted project ${id} (its tokens are now answered with 1025)` };
  },
};

const list: AdminCommand = {
  noun: 'project',
  verb: 'list',
  usage: 'project list [--json]',
  async run(input) {
    noPositionals(input, list);
    const projects = asRows(await input.api.request('GET', '/projects')).map((row) =>
      pick(row, [...PROJECT, 'created_at']),
    );
    const rows = projects.map((p) => [text(p['id']), text(p['name']), text(p['plan']), text(p['created_at'])]);
    return { json: projects, text: table(['ID', 'NAME', 'PLAN', 'CREATED'], rows) };
  },
};

export const projectCommands: readonly AdminCommand[] = [create, remove, list];
