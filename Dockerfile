# Container recipe for netdiag (docs/operations.md "Deployment"). Not exercised by CI: no container runtime runs on
# the machines the project is built and tested on.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
# ping for the ping check; CA certificates for the TLS checks
RUN apt-get update && apt-get install -y --no-install-recommends iputils-ping ca-certificates && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/data ./data
ENV NODE_ENV=production NETDIAG_DATA_DIR=/var/lib/netdiag PORT=8080
RUN mkdir -p /var/lib/netdiag && chown node:node /var/lib/netdiag
USER node
EXPOSE 8080
# /metrics listens on 127.0.0.1:9464 inside the container by default (docs/operations.md "Metrics"): to scrape it
# from another container, set metrics.host to 0.0.0.0 in the file named by NETDIAG_CONFIG (and metrics.token
# if that network is shared), and never publish that port. /healthz is answered by the primary process.
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:8080/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# --max-semi-space-size, --v8-pool-size: docs/operations.md "Under load" (the same flags as `npm start`)
CMD ["node", "--max-semi-space-size=8", "--v8-pool-size=2", "--heap-growing-percent=30", "dist/main.js"]
