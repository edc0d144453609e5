// The app shell: which screen to show comes from the capability in the URL
// fragment (#gm=..., #seat=..., #spectator=...), which never reaches a server log.
export type Capability = { role: 'gm' | 'player' | 'spectator'; token: string } | null;

export function readCapability(hash: string): Capability {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  for (const [key, role] of [['gm', 'gm'], ['seat', 'player'], ['spectator', 'spectator']] as const) {
    const token = params.get(key);
    if (token) return { role, token };
  }
  return null;
}

export function App() {
  const capability = readCapability(location.hash);
  return (
    <main>
      <h1>Tablekeeper</h1>
      <p>{capability ? `Joining as ${capability.role}…` : 'Open the GM link printed by `npm start`, or a player link from your GM.'}</p>
    </main>
  );
}
