/**
 * Assembles the schema: importing the definitions (./load-definitions.ts, every module in
 * ./definitions/) registers each check's Query field with the object types it uses (./types/).
 */
import { builder } from './builder.js';
import './load-definitions.js';
import './jobs/job-fields.js';

export const schema = builder.toSchema({ sortSchema: true });
