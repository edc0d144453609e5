// A link that will never work says so within a couple of seconds instead of
// spinning: when the table socket closes before any view arrived and the
// server itself answers, the token was refused (the server turns a bad token
// away before the WebSocket opens, so the browser sees no reason). A close
// with a reason (revoked) is believed at once; a bare one only the second time.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { TableClient } from '../net/client.ts';
import { linkProblem, forget, deviceStore } from '../lib/recent.ts';

export function useLinkProblem(client: TableClient): string | null {
  const [problem, setProblem] = useState<string | null>(null);
  const status = client.status.value;
  const hasView = client.view.value !== null;
  const reason = client.closeReason.value;
  // Two refusals in a row (about half a second with the client's backoff): one failed attempt may be a server restarting.
  const closes = useRef(0);
  useEffect(() => {
    if (hasView || status !== 'closed' || problem !== null) return;
    closes.current += 1;
    if (closes.current < 2 && reason === null) return;
    let live = true;
    void fetch('/healthz')
      .then((r) => {
        if (!live || !r.ok || client.view.value !== null) return;
        client.close();
        setProblem(linkProblem(reason));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [status, hasView, reason, problem, client]);
  return problem;
}

export function LinkProblem({ message }: { message: string }) {
  return (
    <div role="alert" data-testid="link-problem">
      <p>{message}</p>
      <p>
        <a
          href="/"
          onClick={() => {
            // A link that no longer works leaves the recent list.
            forget(deviceStore(), location.hash.replace(/^#/, ''));
          }}
        >
          Go to your tables
        </a>
      </p>
    </div>
  );
}
