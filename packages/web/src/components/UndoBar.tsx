import type { ViewState } from '../net/view.ts';
import type { Send } from './types.ts';

/**
 * Undo / redo naming what each will take back or bring back, with the creatures' names, from the engine's
 * history for this viewer (the view's undoWords / redoWords; the plain label where it has no words).
 */
export function UndoBar({ view, send }: { view: ViewState; send: Send }) {
  const undo = view.undoWords ?? view.undoLabel ?? null;
  const redo = view.redoWords ?? view.redoLabel ?? null;
  return (
    <div class="row undo-bar" role="group" aria-label="Undo and redo">
      <button onClick={() => send({ type: 'history.undo' })} disabled={!view.canUndo} aria-label={undo ? `Undo ${undo}` : 'Undo (nothing to undo)'} title={undo ? `Undo: ${undo}` : 'Nothing to undo'} aria-keyshortcuts="u Control+z" data-testid="undo">
        {/* One flex item: the button's gap put a space before the colon ("Undo : ..."). */}
        <span>↶ Undo{undo ? <span class="small">: {undo}</span> : null}</span>
      </button>
      <button onClick={() => send({ type: 'history.redo' })} disabled={!view.canRedo} aria-label={redo ? `Redo ${redo}` : 'Redo (nothing to redo)'} title={redo ? `Redo: ${redo}` : 'Nothing to redo'} aria-keyshortcuts="Shift+u Control+Shift+z" data-testid="redo">
        <span>↷ Redo{redo ? <span class="small">: {redo}</span> : null}</span>
      </button>
    </div>
  );
}
