/** Assembles the schema: importing a type file registers its types and query fields. */
import { builder } from './builder.js';
import './types/my-ip.js';

export const schema = builder.toSchema({ sortSchema: true });
