import { PLANS } from '#common';
import { usageError } from '../cli-error.ts';
import { planOption } from './account.ts';
import { noPositionals, required, idFromArgument } from './args.ts';
import type { AdminCommand, CommandInput, CommandOutput } from './command.ts';
import { only, operationCommand } from './operation-command.ts';
import { table } from './table.ts';

/** Two operations: in an account given (`createAccountProject`), or in a new account of a plan (`createProject`). */
const create: AdminCommand = {
  noun: 'project',
  verb: 'create',
  usage: `project create --name NAME --plan ${PLANS.join('|')} | --account ACCOUNT_ID [--json]`,
  help: {
    summary: 'Create a project: in the account given, or in a new account of the plan given.',
    options: {
      '--name NAME': 'its name (1-100 characters)',
      '--plan PLAN': `one of ${PLANS.join(', ')}: the project gets a new account of that plan`,
      '--account ACCOUNT_ID': 'the account it belongs to (it takes the account’s plan)',
    },
  },
  async run(input) {
    noPositionals(input, create);
    const name = required(input, create, 'name');
    if (input.values.account !== undefined) return createInAccount(input, name);
    const project = await input.api.createProject({ input: { name, plan: planOption(input, create) } });
    return {
      json: only(project, ['id', 'name', 'plan']),
      text: `created project ${project.id} (name: ${project.name}, plan: ${project.plan})`,
    };
  },
};

/** In an existing account: the plan is the account's, so `--plan` is refused rather than ignored. */
async function createInAccount(input: CommandInput, name: string): Promise<CommandOutput> {
  const account = required(input, create, 'account');
  if (input.values.plan !== undefined)
    throw usageError('--plan and --account exclude each other: the project takes its account’s plan', create.usage);
  const project = await input.api.createAccountProject({ id: account, input: { name } });
  return {
    json: project,
    text: `created project ${project.id} (name: ${project.name}, plan: ${project.plan}) in account ${project.account_id}`,
  };
}

const remove = operationCommand({
  usage: 'project delete PROJECT_ID [--json]',
  operation: 'deleteProject',
  arguments: { PROJECT_ID: 'the project' },
  request: idFromArgument('project id'),
  text: (deleted) => `deleted project ${deleted.id} (its tokens are now answered with 1025)`,
});

const list = operationCommand({
  usage: 'project list [--json]',
  operation: 'listProjects',
  json: (projects) => projects.map((p) => only(p, ['id', 'name', 'plan', 'created_at'])),
  text: (projects) =>
    table(
      ['ID', 'NAME', 'PLAN', 'CREATED'],
      projects.map((p) => [p.id, p.name, p.plan, p.created_at]),
    ),
});

export const projectCommands: readonly AdminCommand[] = [create, remove, list];
