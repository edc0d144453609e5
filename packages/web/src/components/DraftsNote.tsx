// The line under a sheet form that says which creatures hold unsaved edits (sheetDrafts.ts), with a Discard for
// the one on screen: one component for the party's "Edit a sheet" and the tracker's sheet editor.
export function DraftsNote({ name, held, others, keptWhen, testId, onDiscard }: { name: string; held: boolean; others: readonly string[]; keptWhen: string; testId: string; onDiscard: () => void }) {
  if (!held && others.length === 0) return null;
  return (
    <p class="small" role="status" data-testid={testId}>
      {held ? `${name}'s changes are not saved yet (${keptWhen}). ` : ''}
      {others.length > 0 ? `Unsaved changes kept for ${others.join(', ')}: pick them above to save.` : ''}
      {held ? (
        <button type="button" class="small" onClick={onDiscard}>
          Discard {name}'s changes
        </button>
      ) : null}
    </p>
  );
}
