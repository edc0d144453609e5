#!/bin/sh
# Bundles a bench entry with esbuild (names kept, as tsx runs them) so CPU profiles carry real line
# numbers and two checkouts can be alternated as fixed builds: the output goes under the checkout's
# node_modules/.cache/perf so the external packages resolve. Usage: sh bench/bundle.sh bench/server.bench.ts out-name
set -e
out="node_modules/.cache/perf/$2.mjs"
mkdir -p node_modules/.cache/perf
npx esbuild "$1" --bundle --platform=node --format=esm --keep-names --log-level=error \
  --external:better-sqlite3 --external:ws --external:pino --external:fastify --external:'@fastify/*' \
  --external:tinybench --external:qrcode --external:pg --external:nats --outfile="$out"
# Workers are loaded by URL beside the module that starts them.
cp packages/server/src/store/checkpoint-worker.mjs node_modules/.cache/perf/
# The SQLite writer thread (ADR 107): its boot file loads the bundle when it finds one beside it.
if [ -f packages/server/src/store/sqlite-writer-boot.mjs ]; then
  cp packages/server/src/store/sqlite-writer-boot.mjs node_modules/.cache/perf/
  npx esbuild packages/server/src/store/sqlite-writer.ts --bundle --platform=node --format=esm --keep-names --log-level=error \
    --external:better-sqlite3 --outfile=node_modules/.cache/perf/sqlite-writer.bundle.mjs
fi
echo "$out"
