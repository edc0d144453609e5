// The create form's editors for the two table rules whose values are a record
// or a list (ADR 118): the Kleptonomicon's sixth distance (key, name, units or
// no limit) and its default movement styles (rows of a style and its variant,
// added and removed). Each change goes to the draft as it stands; the shared
// check (`settingProblems`, the one creation applies) says what is wrong beside
// the field at fault. Part of the table rules chunk, loaded only when opened.
import type { Json } from '@tablekeeper/engine';
import { DISTANCE_NAME_MAX, MAX_STYLES, NAMED_STYLES, SIXTH_UNITS, STYLE_VARIANTS, settingProblems, styleUnits, type SettingDef, type SettingShape, type ShapeProblem } from '@tablekeeper/rulesets/browser';

type Record_ = { readonly [k: string]: Json };
const isRecord = (v: Json): v is Record_ => v !== null && typeof v === 'object' && !Array.isArray(v);
const sentence = (why: string): string => why.charAt(0).toUpperCase() + why.slice(1) + '.';

/** The problems at `where` (exactly), as sentences beside that field. */
function Problems({ id, problems, where }: { id: string; problems: readonly ShapeProblem[]; where: string }) {
  const here = problems.filter((p) => p.where === where);
  if (here.length === 0) return null;
  return (
    <p id={id} class="error small" role="alert" style={{ margin: '2px 0' }}>
      {here.map((p) => sentence(p.why)).join(' ')}
    </p>
  );
}

export function ShapeEditor({ id, def, shape, value, apply }: { id: string; def: SettingDef; shape: SettingShape; value: Json; apply: (v: Json) => void }) {
  const problems = settingProblems(def, value);
  return shape === 'sixthDistance' ? <DistanceEditor id={id} value={value} problems={problems} apply={apply} /> : <StylesEditor id={id} value={value} problems={problems} apply={apply} />;
}

const field = { display: 'flex', flexDirection: 'column', gap: '2px', minWidth: 0, flex: '1 1 9em' } as const;

function DistanceEditor({ id, value, problems, apply }: { id: string; value: Json; problems: readonly ShapeProblem[]; apply: (v: Json) => void }) {
  const d: Record_ = isRecord(value) ? value : {};
  const text = (k: string): string => (typeof d[k] === 'string' ? (d[k] as string) : '');
  const units = d['units'] ?? null;
  const put = (k: string, v: Json): void => apply({ id: d['id'] ?? '', name: d['name'] ?? '', units, [k]: v });
  const err = (where: string) => (problems.some((p) => p.where === where) ? { 'aria-invalid': true, 'aria-describedby': `${id}-${where}-why` } : {});
  return (
    <div role="group" aria-labelledby={`${id}-title`} data-testid={`${id}-editor`}>
      <Problems id={`${id}--why`} problems={problems} where="" />
      <div class="row small" style={{ alignItems: 'flex-start' }}>
        <label style={field}>
          Name
          <input value={text('name')} maxLength={DISTANCE_NAME_MAX} onInput={(e) => put('name', e.currentTarget.value)} {...err('name')} />
          <Problems id={`${id}-name-why`} problems={problems} where="name" />
        </label>
        <label style={field}>
          Key (lower-case, such as far-sight)
          <input value={text('id')} maxLength={32} autocapitalize="off" spellcheck={false} onInput={(e) => put('id', e.currentTarget.value)} {...err('id')} />
          <Problems id={`${id}-id-why`} problems={problems} where="id" />
        </label>
        <div style={field}>
          <label class="row" style={{ fontWeight: 400 }}>
            <input type="checkbox" checked={units === null} onChange={(e) => put('units', e.currentTarget.checked ? null : SIXTH_UNITS[0] * 2)} style={{ minHeight: 'auto' }} /> No limit
          </label>
          {units === null ? null : (
            <label style={field}>
              Units ({SIXTH_UNITS[0]} to {SIXTH_UNITS[1]})
              <input
                type="number"
                min={SIXTH_UNITS[0]}
                max={SIXTH_UNITS[1]}
                step={1}
                value={String(units)}
                // An unreadable number is kept as typed, so the check names it rather than a guess.
                onInput={(e) => {
                  const t = e.currentTarget.value.trim();
                  put('units', t !== '' && Number.isFinite(Number(t)) ? Number(t) : t);
                }}
                style={{ width: '7em' }}
                {...err('units')}
              />
            </label>
          )}
          <Problems id={`${id}-units-why`} problems={problems} where="units" />
        </div>
      </div>
    </div>
  );
}

const VARIANT_LABEL: { readonly [v: string]: string } = { half: 'Half', normal: 'Normal', double: 'Double' };

function StylesEditor({ id, value, problems, apply }: { id: string; value: Json; problems: readonly ShapeProblem[]; apply: (v: Json) => void }) {
  const rows: Record_[] = Array.isArray(value) ? value.map((r) => (isRecord(r) ? r : {})) : [];
  const styleOf = (r: Record_): string => (typeof r['style'] === 'string' ? r['style'] : '');
  const variantOf = (r: Record_): string => (typeof r['variant'] === 'string' ? r['variant'] : 'normal');
  const put = (next: readonly Record_[]): void => apply(next.map((r) => ({ style: styleOf(r), variant: variantOf(r) })));
  const unused = NAMED_STYLES.find((s) => !rows.some((r) => styleOf(r) === s));
  return (
    <div role="group" aria-labelledby={`${id}-title`} data-testid={`${id}-editor`}>
      <ol style={{ margin: '4px 0', paddingLeft: '1.4em' }}>
        {rows.map((r, i) => {
          const style = styleOf(r);
          // A table's own style made through the API stays listed as it is.
          const choices = NAMED_STYLES.includes(style) || style === '' ? NAMED_STYLES : [...NAMED_STYLES, style];
          const at = (where: string) => problems.some((p) => p.where === `${i}.${where}`);
          return (
            <li key={i} data-testid={`${id}-row`}>
              <div class="row small">
                <select aria-label={`Movement style ${i + 1}`} value={style} onChange={(e) => put(rows.map((x, j) => (j === i ? { ...x, style: e.currentTarget.value } : x)))} aria-invalid={at('style')}>
                  {choices.map((s) => (
                    <option key={s} value={s}>
                      {s.charAt(0).toUpperCase() + s.slice(1)}
                    </option>
                  ))}
                </select>
                <select aria-label={`Movement style ${i + 1}: how far`} value={variantOf(r)} onChange={(e) => put(rows.map((x, j) => (j === i ? { ...x, variant: e.currentTarget.value } : x)))} aria-invalid={at('variant')}>
                  {STYLE_VARIANTS.map((v) => (
                    <option key={v} value={v}>
                      {VARIANT_LABEL[v]} ({styleUnits(v)}u)
                    </option>
                  ))}
                </select>
                <button type="button" class="small" aria-label={`Remove movement style ${i + 1}`} disabled={rows.length <= 1} onClick={() => put(rows.filter((_, j) => j !== i))}>
                  Remove
                </button>
              </div>
              {['', 'style', 'variant'].map((w) => (
                <Problems key={w} id={`${id}-${i}-${w}-why`} problems={problems} where={w === '' ? String(i) : `${i}.${w}`} />
              ))}
            </li>
          );
        })}
      </ol>
      <button type="button" class="small" disabled={rows.length >= MAX_STYLES} onClick={() => put([...rows, { style: unused ?? NAMED_STYLES[0]!, variant: 'normal' }])}>
        Add a movement style
      </button>
      <Problems id={`${id}--why`} problems={problems} where="" />
    </div>
  );
}
