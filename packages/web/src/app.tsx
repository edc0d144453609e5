// The app shell: which screen to show comes from the capability in the URL
// fragment (#gm=..., #seat=..., #spectator=...), which never reaches a server log.
// Each screen is its own chunk, so a phone downloads the player view only
// (scripts/bundle-size.mjs measures both).
import { useEffect, useState } from 'preact/hooks';
import type { Capability as Cap } from './net/client.ts';
import { lazyPanel } from './components/LazyPanels.tsx';
import { wantsTv } from './lib/tv-link.ts';

export type Capability = Cap | null;

const GmScreen = lazyPanel(() => import('./components/GmScreen.tsx').then((m) => m.GmScreen), 'player');
const PlayerView = lazyPanel(() => import('./components/PlayerView.tsx').then((m) => m.PlayerView), 'player');
const Landing = lazyPanel(() => import('./components/Landing.tsx').then((m) => m.Landing), 'player');
// The TV layout of a spectator link (#spectator=...&view=tv): its own small chunk.
const TvView = lazyPanel(() => import('./components/TvView.tsx').then((m) => m.TvView), 'tv');

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
  if (capability.role === 'spectator' && wantsTv(hash)) return <TvView capability={capability} />;
  return <PlayerView capability={capability} />;
}
