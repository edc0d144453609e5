// Moving a combatant in the turn order (issue 20, ADR 29): "earlier" and
// "later" buttons on each row (keyboard and screen reader), and dragging a row
// onto another. Both send the kernel's encounter.reorder; the server decides.
import { useEffect, useRef } from 'preact/hooks';
import type { Combatant, EncounterState } from '@tablekeeper/engine';
import { displayOrder } from '../lib/encounter.ts';
import { dropTarget, hasManualOrder, moveTarget } from '../lib/reorder.ts';
import type { Send } from './types.ts';

const DRAG_TYPE = 'text/x-tablekeeper-combatant';

/** Nothing on tables whose turn order has no manual order (teams, Daggerheart's spotlight, Edge Save slots). */
export function MoveButtons({ c, enc, send, rulesetId }: { c: Combatant; enc: EncounterState; send: Send; rulesetId: string }) {
  const manual = hasManualOrder(rulesetId);
  const ref = useRef<HTMLSpanElement>(null);
  const order = displayOrder(enc).map((x) => x.id);
  const key = order.join(' ');
  const move = (before: string | null | undefined) => {
    if (before !== undefined) void send({ type: 'encounter.reorder', id: c.id, before });
  };
  // The whole row drags; a drop on a row puts the dragged combatant in its place.
  useEffect(() => {
    const li = ref.current?.closest('li');
    if (!li || !manual) return;
    li.draggable = true;
    const start = (e: DragEvent) => {
      e.dataTransfer?.setData(DRAG_TYPE, c.id);
      if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
    };
    const over = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes(DRAG_TYPE)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      const dragged = e.dataTransfer?.getData(DRAG_TYPE);
      if (!dragged) return;
      e.preventDefault();
      const before = dropTarget(order, dragged, c.id);
      if (before !== undefined) void send({ type: 'encounter.reorder', id: dragged, before });
    };
    li.addEventListener('dragstart', start);
    li.addEventListener('dragover', over);
    li.addEventListener('drop', drop);
    return () => {
      li.draggable = false;
      li.removeEventListener('dragstart', start);
      li.removeEventListener('dragover', over);
      li.removeEventListener('drop', drop);
    };
  }, [c.id, key, manual]);
  if (!manual) return null;
  const up = moveTarget(order, c.id, 'up');
  const down = moveTarget(order, c.id, 'down');
  return (
    <span class="row move-buttons" ref={ref}>
      <button class="small" type="button" aria-label={`Move ${c.name} earlier`} title="Earlier in the turn order" disabled={up === undefined} onClick={() => move(up)}>
        ↑
      </button>
      <button class="small" type="button" aria-label={`Move ${c.name} later`} title="Later in the turn order" disabled={down === undefined} onClick={() => move(down)}>
        ↓
      </button>
    </span>
  );
}
