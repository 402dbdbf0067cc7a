import type { AnswerOf } from '#admin/contract';
import { usageError } from '../cli-error.ts';
import { singleId } from './args.ts';
import type { AdminCommand, CommandInput } from './command.ts';
import { operationCommand } from './operation-command.ts';
import { table } from './table.ts';

/** Three operations: show (`getProjectLimits`), `--set` (`setProjectLimits`), `--clear` (`clearProjectLimits`). */
const limits: AdminCommand = {
  noun: 'project',
  verb: 'limits',
  usage: 'project limits PROJECT_ID [--set JSON | --clear] [--json]',
  help: {
    summary:
      "Show a project's rate-limit override, or set or clear it; every gateway applies a change within its policy refresh (500 ms).",
    arguments: { PROJECT_ID: 'the project' },
    options: {
      '--set JSON':
        'the override: {"monthlyQuota": N, "groups": {"GROUP": {"client": {"requests": N, "windowSec": S}, "project": ...}}}; null removes a limit',
      '--clear': 'remove the override: the plan applies again',
    },
  },
  async run(input) {
    const id = singleId(input, limits, 'project id');
    const row = await changeLimits(input, id);
    const override = row.override === null ? 'none (the plan applies)' : JSON.stringify(row.override);
    return { json: row, text: `project ${id} (plan: ${row.plan}): override ${override}` };
  },
};

async function changeLimits(input: CommandInput, id: string): Promise<AnswerOf<'getProjectLimits'>> {
  const { set, clear } = input.values;
  if (set !== undefined && clear) throw usageError('--set and --clear exclude each other', limits.usage);
  if (clear) return input.api.clearProjectLimits({ id });
  if (set === undefined) return input.api.getProjectLimits({ id });
  return input.api.setProjectLimits({ id, input: { override: parseOverride(set) } });
}

/** `--set`'s JSON; the admin API checks what it holds. */
function parseOverride(set: string): unknown {
  try {
    return JSON.parse(set);
  } catch {
    throw usageError('--set must be JSON, e.g. {"monthlyQuota": 100000}', limits.usage);
  }
}

const usage = operationCommand({
  usage: 'project usage PROJECT_ID [--month YYYY-MM] [--json]',
  operation: 'projectUsage',
  arguments: { PROJECT_ID: 'the project' },
  options: { '--month YYYY-MM': 'a UTC calendar month (default: this one)' },
  request: (input, command) => ({ id: singleId(input, command, 'project id'), input: { month: input.values.month } }),
  text: (u) =>
    `${u.month}: ${u.calls} calls (${u.quota === null ? 'no quota' : `quota ${u.quota}`})\n${table(
      ['DAY', 'CALLS'],
      u.days.map((d) => [d.day, String(d.calls)]),
    )}`,
});

export const projectLimitCommands: readonly AdminCommand[] = [limits, usage];
