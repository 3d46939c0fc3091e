# docmill: `docker build -t docmill:local .`, or let docker-compose.yml build it.
# Two stages: the build stage has the dev dependencies (TypeScript) and compiles to dist/; the runtime stage holds
# what package.json's "files" ships (bin, dist, config, models) and the production dependencies only, and runs as a
# non-root user.

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would build before the sources are copied; the build runs below.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY workers ./workers
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production
# glibc's malloc gives each thread of native code (the engine's PDF readers) arenas of its own, which grow over a long
# batch: two keep the local engine's memory flat (BENCHMARKS.md, section 17). A 2 MB young generation in the main
# thread: some 30 MB less over a long PDF batch, at no measured cost in speed (docs/deployment.md, "Memory"). No fixed
# mmap threshold: 32 KiB lowered a mixed batch's peak by 50–125 MB more for 9–28 % more CPU a document.
ENV MALLOC_ARENA_MAX=2 NODE_OPTIONS=--max-semi-space-size=2
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
# dist/ holds the CLI and the library (dist/src) and the engine's thread entry (dist/workers).
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY config ./config
# The English OCR model (models/tessdata_fast/README.md).
COPY models ./models
# The `node` user (uid 1000) of the base image: nothing in the container runs as root.
USER node
# Metrics (worker: --metrics-port 9464; serve: 3002 and --metrics-port 9465).
EXPOSE 3002 9464 9465
ENTRYPOINT ["node", "/app/bin/docmill.js"]
