// The one escaper of the memory report. Everything the page shows from memory,
// transcripts or the file system is text: it goes through `escapeHtml`, and the
// page is built with the `html` template, which escapes every value it is given
// unless the value is markup this module itself made. Attribute values are
// always written in double quotes, and the same escaping makes them safe there.

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

// C0 and C1 controls other than tab and line breaks, and surrogate halves without their pair: not text a page should hold.
const UNPRINTABLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text for an element's content or a double-quoted attribute value: nothing in it can open a tag, end the value or name an entity. */
export function escapeHtml(text: string): string {
  return text.replace(UNPRINTABLE, '\uFFFD').replace(/[&<>"'`]/g, (c) => ENTITIES[c]!);
}

/** Markup this module made: the one thing `html` inserts as it is. */
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type HtmlValue = Markup | string | number | null | undefined | false | readonly HtmlValue[];

function insert(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(insert).join('');
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  return escapeHtml(String(value));
}

/** Markup from a template: the literal parts are the page's own, every `${value}` is escaped (markup made here is kept). */
export function html(parts: TemplateStringsArray, ...values: HtmlValue[]): Markup {
  let out = parts[0] ?? '';
  for (let i = 0; i < values.length; i++) out += insert(values[i]!) + (parts[i + 1] ?? '');
  return new Markup(out);
}

/** Markup joined from a list. */
export const joinMarkup = (items: readonly HtmlValue[], separator = ''): Markup => new Markup(items.map(insert).join(separator));
