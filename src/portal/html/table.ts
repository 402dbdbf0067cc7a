import { type Html, html } from './escape.ts';

export interface TableRow {
  /** The row's header cell (`<th scope="row">`): what the row is about. */
  readonly header: Html | string;
  readonly cells: ReadonlyArray<Html | string>;
}

/**
 * A data table with a caption and scoped headers. Each cell carries its column name, so on a
 * phone the stylesheet can show every row as a card of "name: value" lines (no sideways
 * scrolling); the markup stays a table, so screen readers announce it as one.
 */
export function dataTable(caption: Html | string, columns: readonly string[], rows: readonly TableRow[]): Html {
  const body = rows.map(
    (row) =>
      html`<tr><th scope="row" data-label="${columns[0] ?? ''}"><span class="cell">${row.header}</span></th>${row.cells.map(
        (cell, i) => html`<td data-label="${columns[i + 1] ?? ''}"><span class="cell">${cell}</span></td>`,
      )}</tr>`,
  );
  return html`<div class="table-wrap"><table class="responsive"><caption>${caption}</caption>
<thead><tr>${columns.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead>
<tbody>${body}</tbody></table></div>`;
}
