/** The command line of netdiag (src/cli/args.ts): its own options, the tool's parameters, and usage errors. */
import { describe, expect, it } from 'vitest';
import { parseCommandLine, UsageError } from '../../../src/cli/args.js';

describe('the command line', () => {
  it('separates the tool, its targets, its parameters and the command’s options', () => {
    const options = parseCommandLine(
      ['port-checker', 'mail.example.com', '--port', '25', '--json', '--fail-on=warning', '--min-grade', 'b+'],
      {},
    );
    expect(options).toMatchObject({
      command: 'port-checker',
      targets: ['mail.example.com'],
      params: { port: '25' },
      json: true,
      failOn: 'warning',
      minGrade: 'B+',
      url: null,
    });
  });

  it('takes the service and the key from the environment unless --local or the options say otherwise', () => {
    const env = { NETDIAG_URL: 'https://netdiag.example.net/', NETDIAG_API_KEY: 'k-123456789' };
    expect(parseCommandLine(['whois', 'example.com'], env)).toMatchObject({
      url: 'https://netdiag.example.net',
      key: 'k-123456789',
    });
    expect(parseCommandLine(['whois', 'example.com', '--local'], env).url).toBeNull();
    expect(parseCommandLine(['whois', 'example.com', '--url', 'http://127.0.0.1:8080'], env).url).toBe(
      'http://127.0.0.1:8080',
    );
  });

  it('reads --timeout in seconds (fractions too), and no bound without it', () => {
    expect(parseCommandLine(['whois', 'example.com', '--timeout', '2.5'], {}).timeoutMs).toBe(2500);
    expect(parseCommandLine(['whois', 'example.com'], {}).timeoutMs).toBeNull();
  });

  it.each([
    [['tls-rating', 'x', '--min-grade', 'Q'], '--min-grade'],
    [['tls-rating', 'x', '--fail-on', 'info'], '--fail-on'],
    [['tls-rating', 'x', '--port'], '--port needs a value'],
    [['report', 'x', '--view', 'dns'], '--view'],
    [['tls-rating', 'x', '--concurrency', '0'], '--concurrency'],
    [['tls-rating', 'x', '--url', 'ftp://example.com'], '--url'],
    [['tls-rating', 'x', '--timeout', 'soon'], '--timeout takes seconds'],
    [['tls-rating', 'x', '--timeout', '-1'], '--timeout takes seconds'],
    [['tls-rating', 'x', '--timeout', '604801'], '--timeout takes seconds'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCommandLine(argv, {})).toThrow(UsageError);
    expect(() => parseCommandLine(argv, {})).toThrow(message);
  });
});
