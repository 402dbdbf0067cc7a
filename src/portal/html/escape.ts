import { escapeHtml } from '#common';

/**
 * A tiny `html` tagged template: every interpolated value is escaped unless it is already
 * `Html` (made by this template), so markup only ever comes from our own literals.
 */
export class Html {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

/** Null, undefined and false render nothing (for `${cond && html`...`}`); arrays are joined. */
function render(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}
