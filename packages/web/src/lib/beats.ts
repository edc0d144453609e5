// A long-term countdown's story beats as the GM types them (000 "Long-Term Countdowns": a beat is written for
// each tick), one a line, "value: what happens"; read into countdown.create's beats with errors in words.
// A line starting with "!" is news the party may learn of when it is reached (000's example: only steps 6 and 3
// reach the party), so each beat is marked on its own line. Its own module, in the GM's lazy "New countdown" chunk.

export interface BeatEntry {
  readonly at: number;
  readonly text: string;
  /** Marked with a leading "!": the players learn of it once the countdown reaches it. */
  readonly partyCanLearn: boolean;
}

const MAX_BEAT_TEXT = 500;

/** The beats in `text` for a countdown starting at `start` (each at a value from 0 to start, once; "!" first: news), or what is wrong. */
export function parseBeats(text: string, start: number): { ok: true; beats: BeatEntry[] } | { ok: false; message: string } {
  const beats: BeatEntry[] = [];
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  for (const [i, line] of lines.entries()) {
    const m = /^(!?)\s*(\d{1,3})\s*[:.)-]\s*(.*)$/.exec(line);
    const where = `Story beat line ${i + 1}`;
    if (m === null) return { ok: false, message: `${where} must start with the value it happens at, then a colon: "3: the cult takes the mayor".` };
    const at = Number(m[2]);
    const what = m[3]!.trim();
    if (at > start) return { ok: false, message: `${where}: ${at} is past the start (${start}); a beat happens at a value from 0 to ${start}.` };
    if (beats.some((b) => b.at === at)) return { ok: false, message: `${where}: there is already a beat at ${at}; one beat per value.` };
    if (what === '') return { ok: false, message: `${where}: say what happens at ${at}.` };
    if (what.length > MAX_BEAT_TEXT) return { ok: false, message: `${where}: at most ${MAX_BEAT_TEXT} characters.` };
    beats.push({ at, text: what, partyCanLearn: m[1] === '!' });
  }
  return { ok: true, beats };
}
