/** Assembles the schema: importing a type file registers its types and query fields. */
import { builder } from './builder.js';
import './types/my-ip.js';
import './types/dns.js';
import './types/dns-checks.js';
import './types/mail.js';
import './types/smtp.js';
import './types/dane.js';
import './types/mta-sts.js';
import './types/bimi.js';
import './types/ip.js';
import './types/registry.js';
import './types/tls.js';
import './types/http.js';
import './types/ping.js';
import './types/health.js';
import './types/mailhealth.js';

export const schema = builder.toSchema({ sortSchema: true });
