// The app shell: which screen to show comes from the capability in the URL
// fragment (#gm=..., #seat=..., #spectator=...), which never reaches a server log.
import { useEffect, useState } from 'preact/hooks';
import type { Capability as Cap } from './net/client.ts';
import { GmScreen } from './components/GmScreen.tsx';
import { PlayerView } from './components/PlayerView.tsx';
import { Landing } from './components/Landing.tsx';

export type Capability = Cap | null;

export function readCapability(hash: string): Capability {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  for (const [key, role] of [['gm', 'gm'], ['seat', 'player'], ['spectator', 'spectator']] as const) {
    const token = params.get(key);
    if (token) return { role, token };
  }
  return null;
}

export function App() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  const capability = readCapability(hash);
  if (!capability) return <Landing />;
  if (capability.role === 'gm') return <GmScreen capability={capability} />;
  return <PlayerView capability={capability} />;
}
