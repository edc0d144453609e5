// One answer per query (name + args) per table version, shared by every panel
// that asks it. While one is out, asks at newer versions wait for it and then
// go once, at the newest version: a burst of changes never queues stale asks
// (issue 20: open panels spent the GM socket's budget as the GM pressed N).

/** What a query asker does: ask the server, or answer from what is known. */
export type Asker<A> = (name: string, args: { readonly [k: string]: unknown }) => Promise<A>;

interface Asked<A> {
  readonly version: number;
  readonly answer: Promise<A>;
  done: boolean;
  /** The one ask at the newest version, waiting for this one to come back. */
  next?: Promise<A>;
}

/** Past this many kept answers the oldest is forgotten (another ask of it goes to the server again). */
export const KEPT_ANSWERS = 64;

/**
 * `ask` shared: `version()` is the table version the screen holds; an answer
 * `keep` refuses (offline, over the budget) is not reused.
 */
export function shareQueries<A>(ask: Asker<A>, version: () => number, keep: (a: A) => boolean): Asker<A> {
  const asked = new Map<string, Asked<A>>();
  const shared: Asker<A> = (name, args) => {
    const key = `${name} ${JSON.stringify(args)}`;
    const v = version();
    const was = asked.get(key);
    if (was !== undefined && was.version >= v) return was.answer;
    if (was !== undefined && !was.done) return (was.next ??= was.answer.then(() => shared(name, args)));
    const now: Asked<A> = { version: v, answer: ask(name, args), done: false };
    asked.delete(key);
    asked.set(key, now);
    if (asked.size > KEPT_ANSWERS) asked.delete(asked.keys().next().value as string);
    void now.answer.then((a) => {
      now.done = true;
      if (!keep(a) && asked.get(key) === now) asked.delete(key);
    });
    return now.answer;
  };
  return shared;
}
