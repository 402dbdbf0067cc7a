import { describe, expect, it } from 'vitest';
import { highlight } from '../../../src/validation/address/format/highlight.ts';
import { parseQuery } from '../../../src/validation/address/search/query.ts';

describe('highlighted_full_address', () => {
  it('escapes the markup characters of address text with the one HTML escaper, inside and outside the spans', () => {
    const lit = highlight(`1 Rose & Crown <Lane> "Old", O'HARA`, parseQuery("rose o'hara", { prefix: true }));
    expect(lit).toBe(
      "1 <span class='af_hl'>Rose</span> &amp; Crown &lt;Lane&gt; &quot;Old&quot;, <span class='af_hl'>O&#39;HARA</span>",
    );
  });
});
