import { useEffect, useMemo } from 'preact/hooks';
import { TableClient, socketUrl, type Capability } from '../net/client.ts';
import { WS_PATH } from '../net/codec.ts';

/** One TableClient per mounted screen, connected for the screen's life. */
export function useTable(capability: Capability): TableClient {
  const client = useMemo(() => new TableClient({ url: socketUrl(location, WS_PATH), capability }), [capability.role, capability.token]);
  useEffect(() => {
    client.connect();
    return () => client.close();
  }, [client]);
  return client;
}
