/**
 * A loopback SMTP server for the mail transport tests: enough of RFC 5321 and RFC 3207 to greet,
 * answer EHLO, upgrade with STARTTLS (node:tls on the same socket) and say goodbye. It never accepts
 * mail. Each behaviour is one way a real MX can look:
 *
 *   starttls      220, EHLO with STARTTLS, a handshake with `tls` (the lab PKI's certificates)
 *   plain         220, EHLO without STARTTLS
 *   tls-broken    STARTTLS offered and answered 220, then bytes that are not TLS, then close
 *   refuse-tls    STARTTLS offered, the command answered 454
 *   greet-554     a 554 greeting (a server that will not talk to this client)
 *   endless       a greeting line that never ends (bytes without a line end, forever)
 *   flood         complete greetings, one after another, forever
 *   silent        accepts the connection and never says a word
 *
 * It records what each client sent, so a test can assert that nothing but EHLO, STARTTLS and QUIT
 * was ever said.
 */
import net, { type AddressInfo } from 'node:net';
import tls from 'node:tls';

export type SmtpBehaviour =
  | 'starttls'
  | 'plain'
  | 'tls-broken'
  | 'refuse-tls'
  | 'greet-554'
  | 'endless'
  | 'flood'
  | 'silent';

export interface LabSmtpOptions {
  behaviour: SmtpBehaviour;
  /** the certificate (chain) and key of the STARTTLS handshake */
  tls?: { cert: string; key: string };
  host?: string;
  /** default 0 (any free port); another server's port to serve several loopback addresses on one port */
  port?: number;
  /** the name in the greeting and the EHLO reply */
  name?: string;
}

export interface LabSmtpServer {
  readonly port: number;
  readonly host: string;
  /** the command lines every client sent, in order (before and after TLS) */
  readonly commands: string[];
  /** connections accepted so far */
  connections(): number;
  /** connections still open */
  openConnections(): number;
  close(): Promise<void>;
}

export async function startSmtpServer(options: LabSmtpOptions): Promise<LabSmtpServer> {
  const name = options.name ?? 'mx.lab.test';
  const commands: string[] = [];
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const timers = new Set<NodeJS.Timeout>();

  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const b = options.behaviour;
    if (b === 'silent') return;
    if (b === 'greet-554') {
      socket.end('554 5.7.1 lab: no SMTP service for you\r\n');
      return;
    }
    if (b === 'endless' || b === 'flood') {
      const chunk = b === 'endless' ? '220-'.padEnd(1024, 'x') : '220 hello\r\n'.repeat(50);
      const timer = setInterval(() => {
        if (socket.writable) socket.write(chunk);
        else clearInterval(timer);
      }, 1);
      timers.add(timer);
      socket.on('close', () => clearInterval(timer));
      return;
    }
    socket.write(`220 ${name} ESMTP lab\r\n`);
    let buffer = '';
    const onData = (chunk: Buffer): void => {
      buffer += chunk.toString('latin1');
      for (let lf = buffer.indexOf('\n'); lf >= 0; lf = buffer.indexOf('\n')) {
        const line = buffer.slice(0, lf).replace(/\r$/, '');
        buffer = buffer.slice(lf + 1);
        commands.push(line);
        const verb = line.split(' ')[0]!.toUpperCase();
        if (verb === 'EHLO') {
          const offered = b !== 'plain';
          socket.write(
            [
              `250-${name} hello`,
              '250-SIZE 10240000',
              '250-8BITMIME',
              ...(offered ? ['250-STARTTLS'] : []),
              '250 SMTPUTF8',
            ]
              .map((l) => `${l}\r\n`)
              .join(''),
          );
        } else if (verb === 'STARTTLS') {
          if (b === 'refuse-tls') {
            socket.write('454 4.7.0 TLS not available due to temporary reason\r\n');
            continue;
          }
          socket.write('220 2.0.0 Ready to start TLS\r\n');
          socket.off('data', onData);
          if (b === 'tls-broken') {
            socket.end('this is not a TLS record\r\n');
            return;
          }
          upgrade(socket);
          return;
        } else if (verb === 'QUIT') {
          socket.end('221 2.0.0 Bye\r\n');
          return;
        } else {
          socket.write('502 5.5.1 lab: command not implemented\r\n');
        }
      }
    };
    socket.on('data', onData);
  });

  function upgrade(socket: net.Socket): void {
    if (!options.tls) throw new Error('the starttls behaviour needs a certificate');
    const secure = new tls.TLSSocket(socket, { isServer: true, cert: options.tls.cert, key: options.tls.key });
    secure.on('error', () => {});
    secure.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('latin1').split(/\r?\n/).filter(Boolean)) {
        commands.push(line);
        if (line.toUpperCase() === 'QUIT') secure.end('221 2.0.0 Bye\r\n');
        else secure.write('502 5.5.1 lab: nothing but QUIT here\r\n');
      }
    });
  }

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    host,
    commands,
    connections: () => accepted,
    openConnections: () => sockets.size,
    async close() {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
