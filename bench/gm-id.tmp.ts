import { furnish, engine } from './realistic-room.js';
const { room } = furnish('x', 300, 5);
const w = room.table.world;
const p = engine.project(w, { role: 'gm' });
console.log('same world', p === w);
for (const k of Object.keys(w)) console.log(k, (w as any)[k] === (p as any)[k]);
for (const k of Object.keys(w.ext)) console.log('ext.' + k, w.ext[k] === p.ext[k]);
console.log(Object.keys(p).filter((k) => !(k in w)));
