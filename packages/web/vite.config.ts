import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

// The web app is served by the table server from dist/; no CDN assets, so it
// works on a LAN with no internet.
export default defineConfig({
  plugins: [preact()],
  // One preact for the app and @preact/signals: the root node_modules holds a
  // different major, and two copies mean signals never re-render components.
  resolve: { dedupe: ['preact'] },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022' },
  server: { proxy: { '/api': 'http://localhost:7777', '/ws': { target: 'ws://localhost:7777', ws: true } } },
});
