// Shared chrome: the connection status, the rejection toast.
import { useEffect } from 'preact/hooks';
import type { TableClient } from '../net/client.ts';
import { sentenceOf } from '../lib/words.ts';

/** `bad`: the page has said the link will never work, so nothing is retried any more (a GM review finding). */
export function StatusDot({ client, bad = false }: { client: TableClient; bad?: boolean }) {
  const s = client.status.value;
  const label = bad ? 'Not connected' : s === 'open' ? 'Connected' : s === 'connecting' ? 'Connecting…' : s === 'closed' ? 'Disconnected — retrying' : 'Not connected';
  return (
    <span class="row small" role="status" data-testid="conn-status" data-status={s}>
      <span class={`status-dot ${s}`} aria-hidden="true" />
      {client.closeReason.value && s === 'closed' && !bad ? client.closeReason.value : label}
    </span>
  );
}

/** Typed rejections from the server, shown until the next one or a few seconds. */
export function RejectionToast({ client, names = {} }: { client: TableClient; names?: { readonly [id: string]: string } }) {
  const r = client.lastRejection.value;
  useEffect(() => {
    if (!r) return;
    const t = setTimeout(() => {
      if (client.lastRejection.value === r) client.lastRejection.value = null;
    }, 6000);
    return () => clearTimeout(t);
  }, [r, client]);
  if (!r) return null;
  // Words, not codes: the sentence only, with ids turned into names.
  return (
    <div class="toast" role="alert" data-testid="rejection">
      <strong>Not done:</strong> {sentenceOf(r, names)}
    </div>
  );
}
