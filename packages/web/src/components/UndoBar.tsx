import type { ViewState } from '../net/view.ts';
import type { Send } from './types.ts';

/** Undo / redo naming what each will revert or re-apply (from the view's undoLabel / redoLabel). */
export function UndoBar({ view, send }: { view: ViewState; send: Send }) {
  const undoLabel = view.undoLabel ?? null;
  const redoLabel = view.redoLabel ?? null;
  return (
    <div class="row" role="group" aria-label="Undo and redo">
      <button onClick={() => send({ type: 'history.undo' })} disabled={!view.canUndo} title={undoLabel ? `Undo: ${undoLabel}` : 'Nothing to undo'} aria-keyshortcuts="u Control+z" data-testid="undo">
        ↶ Undo{undoLabel ? <span class="small">: {undoLabel}</span> : null}
      </button>
      <button onClick={() => send({ type: 'history.redo' })} disabled={!view.canRedo} title={redoLabel ? `Redo: ${redoLabel}` : 'Nothing to redo'} aria-keyshortcuts="Shift+u Control+Shift+z" data-testid="redo">
        ↷ Redo{redoLabel ? <span class="small">: {redoLabel}</span> : null}
      </button>
    </div>
  );
}
