// A long-term countdown's story beats as the GM types them (000 "Long-Term Countdowns": a beat is written for
// each tick), one a line, "value: what happens"; read into countdown.create's beats with errors in words.
// Its own module, so only the GM's lazy "New countdown" chunk carries it.

export interface BeatEntry {
  readonly at: number;
  readonly text: string;
}

const MAX_BEAT_TEXT = 500;

/** The beats in `text` for a countdown starting at `start` (each at a value from 0 to start, once), or what is wrong. */
export function parseBeats(text: string, start: number): { ok: true; beats: BeatEntry[] } | { ok: false; message: string } {
  const beats: BeatEntry[] = [];
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  for (const [i, line] of lines.entries()) {
    const m = /^(\d{1,3})\s*[:.)-]\s*(.*)$/.exec(line);
    const where = `Story beat line ${i + 1}`;
    if (m === null) return { ok: false, message: `${where} must start with the value it happens at, then a colon: "3: the cult takes the mayor".` };
    const at = Number(m[1]);
    const what = m[2]!.trim();
    if (at > start) return { ok: false, message: `${where}: ${at} is past the start (${start}); a beat happens at a value from 0 to ${start}.` };
    if (beats.some((b) => b.at === at)) return { ok: false, message: `${where}: there is already a beat at ${at}; one beat per value.` };
    if (what === '') return { ok: false, message: `${where}: say what happens at ${at}.` };
    if (what.length > MAX_BEAT_TEXT) return { ok: false, message: `${where}: at most ${MAX_BEAT_TEXT} characters.` };
    beats.push({ at, text: what });
  }
  return { ok: true, beats };
}
