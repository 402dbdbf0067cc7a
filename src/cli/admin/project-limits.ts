import { usageError } from '../cli-error.ts';
import { segment, singleId } from './args.ts';
import type { AdminCommand } from './command.ts';
import { asRow, asRows, pick, text } from './shape.ts';
import { table } from './table.ts';

const LIMITS = ['project_id', 'plan', 'override'] as const;

const limits: AdminCommand = {
  noun: 'project',
  verb: 'limits',
  usage: 'project limits PROJECT_ID [--set JSON | --clear] [--json]',
  async run(input) {
    const id = singleId(input, limits, 'project id');
    const path = `/projects/${segment(id)}/limits`;
    const { set, clear } = input.values;
    if (set !== undefined && clear) throw usageError('--set and --clear exclude each other', limits.usage);
    let answer: unknown;
    if (set !== undefined) {
      let override: unknown;
      try {
        override = JSON.parse(set);
      } catch {
        throw usageError('--set must be JSON, e.g. {"monthlyQuota": 100000}', limits.usage);
      }
      answer = await input.api.request('POST', path, { override });
    } else answer = await input.api.request(clear ? 'DELETE' : 'GET', path);
    const row = pick(asRow(answer), LIMITS);
    const override = row['override'] === null ? 'none (the plan applies)' : JSON.stringify(row['override']);
    return { json: row, text: `project ${id} (plan: ${text(row['plan'])}): override ${override}` };
  },
};

const usage: AdminCommand = {
  noun: 'project',
  verb: 'usage',
  usage: 'project usage PROJECT_ID [--month YYYY-MM] [--json]',
  async run(input) {
    const id = singleId(input, usage, 'project id');
    const month = input.values.month;
    const query = month === undefined ? '' : `?month=${encodeURIComponent(month)}`;
    const row = pick(asRow(await input.api.request('GET', `/projects/${segment(id)}/usage${query}`)), [
      'project_id',
      'month',
      'calls',
      'quota',
      'days',
    ]);
    const days = asRows(row['days']).map((d) => [text(d['day']), text(d['calls'])]);
    const quota = row['quota'] === null ? 'no quota' : `quota ${text(row['quota'])}`;
    return {
      json: row,
      text: `${text(row['month'])}: ${text(row['calls'])} calls (${quota})\n${table(['DAY', 'CALLS'], days)}`,
    };
  },
};

export const projectLimitCommands: readonly AdminCommand[] = [limits, usage];
