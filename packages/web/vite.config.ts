import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

// The web app is served by the table server from dist/; no CDN assets, so it
// works on a LAN with no internet.
export default defineConfig({
  plugins: [preact()],
  // One preact for the app and @preact/signals: the root node_modules holds a
  // different major, and two copies mean signals never re-render components.
  resolve: { dedupe: ['preact'] },
  // No preload helper (ADR 61): Rollup already lists a chunk's transitive imports at
  // its top, so a lazy panel's files load in parallel one round trip after the
  // panel's own; the helper's list of every chunk name cost the phone 1 KB gz.
  // The CSS a lazy chunk needs is still loaded with it.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022', modulePreload: false },
  server: { proxy: { '/api': 'http://localhost:7777', '/ws': { target: 'ws://localhost:7777', ws: true } } },
});
