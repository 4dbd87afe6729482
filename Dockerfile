# syntax=docker/dockerfile:1
# The gatehouse backend: `node build/server/main.js`, on PORT (default 8080), on its embedded
# in-memory store unless MONGODB_URI is set. Dockerfile.sync builds the sync service the same way.
#
# Base images are pinned by tag. Pinning by digest as well (node:24-slim@sha256:...) makes
# builds reproducible; Renovate or Dependabot can keep such a digest current.

FROM node:24-slim AS build
WORKDIR /src
# Scripts off: compiling needs no install script, and none should run at build time.
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts
# tsconfig.json includes server/, actions/, test/, bench/ and demo/, so all five are copied and the
# build is the project's own `tsc -p tsconfig.json`; only build/server/ reaches the runtime image.
COPY tsconfig.json ./
COPY server ./server
COPY actions ./actions
COPY test ./test
COPY bench ./bench
COPY demo ./demo
RUN npx tsc -p tsconfig.json

FROM node:24-slim
# The release workflow overrides source (and adds version/revision) from the repository it runs in.
LABEL org.opencontainers.image.source="https://github.com/gatehouse/gatehouse" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.title="gatehouse" \
      org.opencontainers.image.description="gatehouse backend: deployment records, short-lived GitHub App tokens, ledger"
ENV NODE_ENV=production
WORKDIR /app
# package.json stays in the image: the service reads its name and version from it.
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts
# Owned by root and only readable by the node user: the process cannot change its own code.
COPY --from=build /src/build/server ./build/server
USER node
EXPOSE 8080
# For plain Docker runs (slim has no curl); Kubernetes uses the probes instead.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and handles SIGTERM itself (graceful shutdown). --v8-pool-size=1: one V8 helper
# thread (the collector's), not Node's fixed 4, which on a CPU or two compete with the thread
# answering requests (docs/self-hosting.md, The process).
ENTRYPOINT ["node", "--v8-pool-size=1", "build/server/main.js"]
