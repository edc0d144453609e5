// Keyboard shortcuts for the GM screen. Single keys, ignored while typing in
// a field (so "n" in the dice box types an n), plus Ctrl/Cmd+Z for undo.
export type ShortcutAction = 'nextTurn' | 'prevTurn' | 'damage' | 'condition' | 'undo' | 'redo' | 'roll' | 'help' | 'close';

export interface Shortcut {
  readonly action: ShortcutAction;
  readonly keys: readonly string[];
  readonly label: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { action: 'nextTurn', keys: ['N'], label: 'Next turn (end the current turn, or start the next)' },
  { action: 'prevTurn', keys: ['P'], label: 'Previous turn (takes back the last turn change)' },
  { action: 'damage', keys: ['D'], label: 'Damage box of the creature whose turn it is (type a number, Enter deals it)' },
  { action: 'condition', keys: ['C'], label: 'Condition picker of the creature whose turn it is' },
  { action: 'undo', keys: ['U', 'Ctrl+Z'], label: 'Undo the last change' },
  { action: 'redo', keys: ['Shift+U', 'Ctrl+Shift+Z'], label: 'Redo' },
  { action: 'roll', keys: ['R'], label: 'Go to the dice box (Enter rolls)' },
  { action: 'help', keys: ['?'], label: 'Show this help' },
  { action: 'close', keys: ['Esc'], label: 'Close a dialog, or leave the box you are typing in' },
];

function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable;
}

/** Which action a key press means, or null. Pure, so it is unit-testable. */
export function shortcutFor(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'target'>): ShortcutAction | null {
  if (e.key === 'Escape') return 'close';
  const mod = e.ctrlKey || e.metaKey;
  if (mod && !e.altKey && e.key.toLowerCase() === 'z') return typing(e.target) ? null : e.shiftKey ? 'redo' : 'undo';
  if (mod || e.altKey || typing(e.target)) return null;
  switch (e.key) {
    case 'n':
    case 'N':
      return 'nextTurn';
    case 'p':
    case 'P':
      return 'prevTurn';
    case 'd':
    case 'D':
      return 'damage';
    case 'c':
    case 'C':
      return 'condition';
    case 'u':
      return 'undo';
    case 'U':
      return 'redo';
    case 'r':
    case 'R':
      return 'roll';
    case '?':
      return 'help';
    default:
      return null;
  }
}
