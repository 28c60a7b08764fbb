/**
 * The service's modules that bench/my-ip.ts puts together in its own process, bundled as `npm start`
 * runs them (scripts/build-if-stale.mjs's options): the figure is then that of the compiled service,
 * without what the TypeScript loader adds to every module it transpiles (tsx keeps function names by
 * wrapping each function it creates, a few per cent of a my-ip request).
 */
export { createApp } from '../src/app.js';
export { buildConfig } from '../src/config.js';
export { createServices } from '../src/create-services.js';
export { createJsonLogger } from '../src/log.js';
export { requestListenerFor } from '../src/http-server.js';
