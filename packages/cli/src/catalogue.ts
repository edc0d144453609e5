// The command catalogue as people read it (ADR 13): one place renders it for
// `tablekeeper commands` and for docs/commands/<ruleset>.md (npm run docs:commands).
import { catalogEntries, namedRelativeCommands, relativeCommands, type CatalogEntry } from '@tablekeeper/engine';
import { engineFor, rulesetIds, rulesetInfo } from '@tablekeeper/rulesets';

type Schema = { readonly [k: string]: unknown };

/** Every command and query of `ruleset` (or of all rulesets), engine commands under each ruleset that has them. */
export function catalogueOf(ruleset?: string): CatalogEntry[] | null {
  const ids = ruleset === undefined ? rulesetIds : rulesetIds.includes(ruleset) ? [ruleset] : null;
  return ids === null ? null : ids.flatMap((id) => catalogEntries(id, engineFor(id)!));
}

const resolve = (s: Schema, root: Schema): Schema => {
  const ref = s['$ref'];
  return typeof ref === 'string' ? (((root['$defs'] as Record<string, Schema> | undefined)?.[ref.replace('#/$defs/', '')] ?? {}) as Schema) : s;
};

/** A field's type and limits in a few words: "integer 1..40", "one of melee, ranged", "list (at most 13) of ...". */
export function describeSchema(schema: Schema, root: Schema = schema, depth = 0): string {
  const s = resolve(schema, root);
  if (s['$ref'] !== undefined || depth > 3) return 'JSON';
  const ref = typeof s['x-ref'] === 'string' ? `${s['x-ref']} id` : null;
  if (ref !== null) return ref;
  if (Array.isArray(s['enum'])) return `one of ${(s['enum'] as unknown[]).map((x) => String(x)).join(', ')}`;
  if (s['const'] !== undefined) return JSON.stringify(s['const']);
  const anyOf = (s['anyOf'] ?? s['oneOf']) as Schema[] | undefined;
  if (Array.isArray(anyOf)) return anyOf.length >= 6 ? 'JSON' : anyOf.map((x) => describeSchema(x, root, depth + 1)).join(' | ');
  const type = s['type'];
  if (Array.isArray(type)) return type.join(' | ');
  const lim = (lo: unknown, hi: unknown, unit = ''): string =>
    typeof lo === 'number' && typeof hi === 'number' ? ` ${lo}..${hi}${unit}` : typeof hi === 'number' ? ` (at most ${hi}${unit})` : typeof lo === 'number' && lo > 0 ? ` (at least ${lo}${unit})` : '';
  switch (type) {
    case 'integer':
    case 'number':
      return `${type}${lim(s['minimum'], s['maximum'])}`;
    case 'string':
      return `text${lim(s['minLength'], s['maxLength'], ' chars')}${typeof s['pattern'] === 'string' ? ' like 2d6+1' : ''}`;
    case 'boolean':
      return 'true/false';
    case 'null':
      return 'null';
    case 'array':
      return `list${lim(s['minItems'], s['maxItems'], ' items')} of ${describeSchema((s['items'] ?? {}) as Schema, root, depth + 1)}`;
    case 'object': {
      const props = s['properties'] as Record<string, Schema> | undefined;
      if (props === undefined || Object.keys(props).length === 0) {
        const extra = s['additionalProperties'];
        return typeof extra === 'object' && extra !== null ? `map of ${describeSchema(extra as Schema, root, depth + 1)}` : 'object';
      }
      const req = new Set((s['required'] ?? []) as string[]);
      return `{ ${Object.entries(props).map(([k, v]) => `${k}${req.has(k) ? '' : '?'}: ${describeSchema(v, root, depth + 1)}`).join(', ')} }`;
    }
    default:
      return 'JSON';
  }
}

/** The payload's top-level fields, one per entry: name, required or not, type and limits, description. */
export function fieldsOf(schema: Schema): { name: string; required: boolean; type: string; description: string }[] {
  const props = (schema['properties'] ?? {}) as Record<string, Schema>;
  const req = new Set((schema['required'] ?? []) as string[]);
  return Object.entries(props).map(([name, v]) => {
    const r = resolve(v, schema);
    const inner = Array.isArray(r['anyOf']) ? ((r['anyOf'] as Schema[]).find((x) => typeof x['description'] === 'string') ?? r) : r;
    return { name, required: req.has(name), type: describeSchema(v, schema), description: String(r['description'] ?? inner['description'] ?? '') };
  });
}

/** Plain text for a terminal: a heading per ruleset, one line per command, then its fields. */
export function catalogueText(entries: readonly CatalogEntry[]): string {
  const out: string[] = [];
  let current = '';
  for (const e of entries) {
    if (e.ruleset !== current) {
      current = e.ruleset;
      out.push(`${out.length > 0 ? '\n' : ''}${rulesetInfo(current)?.name ?? current} (${current})`);
    }
    out.push(`  ${e.type}${e.kind === 'query' ? ' (query)' : ''} [${e.who}]: ${e.summary}${e.deprecated === undefined ? '' : ` (deprecated: use ${e.deprecated.replacement}; may be refused after ${e.deprecated.removedAfter})`}`);
    for (const f of fieldsOf(e.schema)) out.push(`      ${f.name}${f.required ? '' : '?'}: ${f.type}`);
  }
  return out.join('\n') + '\n';
}

const WHO_WORDS: Record<string, string> = { gm: 'GM', 'own-character': "GM, or the player of the character it names", anyone: 'GM or any seated player', everyone: 'everyone at the table, spectators too' };
const RELATIVE_WORDS = ' Relative: it acts on whatever is current, so a client never sends it again after VERSION_CONFLICT.';
const namedWords = (field: string): string => ` Relative unless it names \`${field}\`: then the rules refuse a stale one, so a client may send it again after VERSION_CONFLICT; without it, never.`;
const deprecatedWords = (e: CatalogEntry): string => (e.deprecated === undefined ? '' : ` Deprecated: send \`${e.deprecated.replacement}\` instead; it keeps working until ${e.deprecated.removedAfter}, and a version released after that date may refuse it.`);
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** docs/commands/<ruleset>.md: generated, never edited by hand (the stale-docs test compares). */
export function catalogueMarkdown(ruleset: string): string {
  const entries = catalogueOf(ruleset) ?? [];
  const name = rulesetInfo(ruleset)?.name ?? ruleset;
  const out: string[] = [
    `# ${name}: commands and queries`,
    '',
    `Generated from the declarations by \`npm run docs:commands\`; do not edit by hand (ADR 13).`,
    `\`tablekeeper commands ${ruleset} --json\` and \`GET /api/rulesets/${ruleset}/commands\` give the same catalogue as JSON Schema.`,
    `A field marked ? may be left out. Objects are strict: an unknown or misspelt field is refused with INVALID_VALUE naming it.`,
    '',
    `${entries.filter((e) => e.kind === 'command').length} commands and ${entries.filter((e) => e.kind === 'query').length} queries.`,
    '',
  ];
  for (const e of entries) {
    const relative = e.relative !== true ? '' : e.namedBy === undefined ? RELATIVE_WORDS : namedWords(e.namedBy);
    out.push(`## \`${e.type}\`${e.kind === 'query' ? ' (query)' : ''}`, '', `${e.summary}. Who: ${WHO_WORDS[e.who] ?? e.who}.${relative}${deprecatedWords(e)}`, '');
    const fields = fieldsOf(e.schema);
    if (fields.length === 0) out.push('No fields.', '');
    else {
      out.push('| field | type | |', '| --- | --- | --- |');
      for (const f of fields) out.push(`| \`${f.name}${f.required ? '' : '?'}\` | ${cell(f.type)} | ${cell(f.description)} |`);
      out.push('');
    }
    if (e.result !== undefined) out.push(`Answer: ${cell(describeSchema(e.result))}`, '');
  }
  return out.join('\n');
}

/** Where the web client's list of relative commands is generated (npm run docs:commands). */
export const RELATIVE_COMMANDS_FILE = 'packages/web/src/net/relative-commands.ts';

/**
 * The web client's list of commands declared relative, in every ruleset: a tiny
 * generated module, so the phone bundle carries no catalogue (the stale-docs test compares).
 */
export function relativeCommandsModule(): string {
  const engines = rulesetIds.map((id) => engineFor(id)!.catalog);
  const types = [...new Set(engines.flatMap((c) => relativeCommands(c)))].sort();
  const named = Object.entries(Object.assign({}, ...engines.map((c) => namedRelativeCommands(c))) as { [type: string]: string }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [
    '// Generated by `npm run docs:commands` from the declarations marked `relative` (ADR 47, 58); do not edit by hand.',
    '// A relative command acts on whatever is current, so the client never sends it again after VERSION_CONFLICT,',
    '// unless it names what it acts on in the field NAMED_BY gives (the rules then refuse a stale one).',
    'export const RELATIVE_COMMANDS: readonly string[] = [',
    ...types.map((t) => `  '${t}',`),
    '];',
    'export const NAMED_BY: { readonly [type: string]: string } = {',
    ...named.map(([t, f]) => `  '${t}': '${f}',`),
    '};',
    '',
  ].join('\n');
}
