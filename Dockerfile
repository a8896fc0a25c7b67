# Buble: the PWA and the API on one port. `docker compose up` runs it with PostgreSQL.
FROM node:20-bookworm-slim

WORKDIR /app

# Dependencies first, so a source change does not reinstall them. The server runs TypeScript
# through tsx (a dev dependency), so the full install is kept.
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY sync/package.json sync/
COPY api/package.json api/
COPY pwa/package.json pwa/
# Falls back to npm install if npm ci rejects the lock file (one written where a registry lacked another
# platform's optional build, e.g. of @biomejs/cli-*).
RUN (npm ci --no-audit --no-fund || npm install --no-audit --no-fund) && npm cache clean --force

COPY . .
RUN npm run build \
  && mkdir -p /app/data \
  && chown node:node /app/data

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/app/data \
    BUBLE_SKIP_BUILD=1

USER node
EXPOSE 8080
VOLUME ["/app/data"]

HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# What `npm start` runs, without npm in between: scripts/start.mjs forwards SIGTERM to the server.
CMD ["node", "scripts/start.mjs"]
