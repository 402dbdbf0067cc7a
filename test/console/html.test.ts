import { describe, expect, it } from 'vitest';
import { escapeHtml } from '#common';
import { html } from '#portal';

describe('html tagged template', () => {
  it('escapes every interpolated string, including quotes that would end an attribute', () => {
    const name = `"><script>alert('x')</script>&`;
    expect(html`<input value="${name}">`.value).toBe(
      '<input value="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">',
    );
    expect(escapeHtml(`<a href='x'>`)).toBe('&lt;a href=&#39;x&#39;&gt;');
  });

  it('keeps markup made by the template, joins arrays and renders nothing for null, undefined and false', () => {
    const items = ['a<', 'b'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.value).toBe('<ul><li>a&lt;</li><li>b</li></ul>0');
  });

  it('does not trust a plain object that merely looks like markup', () => {
    const fake = { value: '<b>bold</b>', toString: () => '<b>bold</b>' };
    expect(html`${fake}`.value).toBe('&lt;b&gt;bold&lt;/b&gt;');
  });
});
