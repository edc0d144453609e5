import { useEffect, useRef } from 'preact/hooks';
import { SHORTCUTS } from '../lib/shortcuts.ts';

/** The keyboard help overlay: a modal dialog that takes focus and gives it back. */
export function HelpOverlay({ onClose }: { onClose: () => void }) {
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    return () => before?.focus();
  }, []);
  return (
    <div class="overlay" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="help-title">
        <h2 id="help-title">Keyboard shortcuts</h2>
        <table>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.action}>
                <td>
                  {s.keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 ? ' or ' : ''}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </td>
                <td>{s.label}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p class="small muted" style={{ marginTop: '8px' }}>Single-key shortcuts are off while you type in a field.</p>
        <div class="row" style={{ justifyContent: 'flex-end' }}>
          <button ref={closeRef} onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
