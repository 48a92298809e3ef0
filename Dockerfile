# syntax=docker/dockerfile:1
# OISR server image (API, workers or both, by OISR_ROLE).
#
# NOT BUILT HERE: the machine this was written on has no Docker engine, so neither this file nor
# compose.yaml has been built or run. Treat the first `docker build .` as their first test.
#
#   docker build -t oisr/server .
#   docker run -p 8080:8080 -e DATABASE_URL=postgres://… oisr/server
#   docker run -p 8080:8080 oisr/server        # embedded PGlite in /data (mount a volume to keep it)
#
# The server runs from its tsdown build (packages/server/dist/main.mjs), as its `start` script
# does: bundled, it starts faster and idles at about a third of the memory that running the
# TypeScript sources with Node's type stripping takes (see packages/server/tsdown.config.ts).

# --- build: every dependency, then the server bundle (workspace packages are bundled into it) ---
FROM node:24-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund \
 # The console (/console) is a package of its own; the server serves its dist/app (decision 015).
 && npx turbo run build --filter=@oisr/server --filter=@oisr/console \
 # Keep only what the server needs at run time: its production dependencies.
 && npm ci --omit=dev --workspace @oisr/server --no-audit --no-fund

# --- runtime: production dependencies and the bundle, as the unprivileged `node` user ---
FROM node:24-slim AS runtime
# A young generation of at most 2 × 16 MB: Node 24 would grow it to 2 × 64 MB under load on a
# large host, for no throughput (docs/decisions/008).
ENV NODE_ENV=production \
    NODE_OPTIONS=--max-semi-space-size=16 \
    HOST=0.0.0.0 \
    PORT=8080 \
    OISR_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages/server/package.json ./packages/server/
COPY --from=build /app/packages/server/bin ./packages/server/bin
COPY --from=build /app/packages/server/dist ./packages/server/dist
COPY --from=build /app/packages/server/drizzle ./packages/server/drizzle
# The server finds the console by resolving @oisr/console/package.json (routes/console.ts): only
# its package.json and built app ship, linked where node_modules would have it.
COPY --from=build /app/packages/console/package.json ./packages/console/
COPY --from=build /app/packages/console/dist/app ./packages/console/dist/app
RUN mkdir -p node_modules/@oisr && ln -sfn ../../packages/console node_modules/@oisr/console
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
# node:24-slim has no curl; Node's fetch does the probe. A worker-only container (OISR_ROLE=worker)
# has no HTTP listener: disable the check for it (compose.yaml does).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Admin commands use the same entry: docker run --rm -e DATABASE_URL=… oisr/server \
#   node packages/server/dist/main.mjs accounts create --name acme
CMD ["node", "packages/server/dist/main.mjs", "serve"]
