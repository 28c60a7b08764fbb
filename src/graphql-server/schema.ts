/**
 * Assembles the schema: importing every check's declaration (./load-declarations.ts) registers each
 * check's Query field with the object types it uses; once all are in, what depends on all of them is
 * completed (a composite's parts, src/graphql/check-declaration.ts `completeDeclarations`).
 */
import { builder } from '../graphql/builder.js';
import { completeDeclarations } from '../graphql/check-declaration.js';
import './load-declarations.js';
import '../graphql/jobs/job-fields.js';
import '../graphql/monitors/monitor-fields.js';

completeDeclarations();

export const schema = builder.toSchema({ sortSchema: true });
