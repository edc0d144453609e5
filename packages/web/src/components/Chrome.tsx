// Shared chrome: the connection status, the rejection toast.
import { useEffect } from 'preact/hooks';
import type { TableClient } from '../net/client.ts';

export function StatusDot({ client }: { client: TableClient }) {
  const s = client.status.value;
  const label = s === 'open' ? 'Connected' : s === 'connecting' ? 'Connecting…' : s === 'closed' ? 'Disconnected — retrying' : 'Not connected';
  return (
    <span class="row small" role="status" data-testid="conn-status" data-status={s}>
      <span class={`status-dot ${s}`} aria-hidden="true" />
      {client.closeReason.value && s === 'closed' ? client.closeReason.value : label}
    </span>
  );
}

/** Typed rejections from the server, shown until the next one or a few seconds. */
export function RejectionToast({ client }: { client: TableClient }) {
  const r = client.lastRejection.value;
  useEffect(() => {
    if (!r) return;
    const t = setTimeout(() => {
      if (client.lastRejection.value === r) client.lastRejection.value = null;
    }, 6000);
    return () => clearTimeout(t);
  }, [r, client]);
  if (!r) return null;
  const what = r.code === 'VERSION_CONFLICT' ? 'Someone changed the table first; your screen is up to date now — try again.' : r.message;
  return (
    <div class="toast" role="alert" data-testid="rejection">
      <strong>{r.code === 'RULE_ERROR' ? (r.ruleCode ?? 'Not allowed') : r.code.replace(/_/g, ' ').toLowerCase()}</strong>: {what}
    </div>
  );
}
