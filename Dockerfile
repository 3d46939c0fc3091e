FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY src ./src
COPY workers ./workers
COPY config ./config
RUN npm ci --no-audit --no-fund && npm prune --omit=dev
USER node
ENTRYPOINT ["node", "/app/bin/docmill.js"]
