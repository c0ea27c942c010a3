#!/usr/bin/env -S node --max-semi-space-size=1
/**
 * The production launcher: `asynqlens [options]` (or `npm start`) runs the standalone server
 * that `npm run build` produced, with every setting available as a flag or as an environment
 * variable (a flag wins). Plain Node, no dependencies: it also ships inside the standalone
 * folder (`bin/asynqlens.mjs` there needs nothing installed).
 *
 * Run as a program (not `node bin/asynqlens.mjs`), it starts Node with a 1 MB young-generation
 * semi-space instead of V8's 16 MB: the console allocates little per request, and the larger
 * space only holds garbage between scavenges, about 20 MB of RSS idle and 30 MB under load
 * (bench/memory-case.ts). `node bin/asynqlens.mjs` works the same, with V8's default.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { randomBytes, scryptSync } from 'node:crypto';
import { apiLane } from './api-lane.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/** flag → [environment variable, help]. Booleans are written to the environment as "1". */
const SETTINGS = {
  'redis-url': ['REDIS_URL', 'redis://[user:password@]host:port/db, rediss:// for TLS (default redis://127.0.0.1:6379/0)'],
  sentinels: ['ASYNQLENS_REDIS_SENTINELS', 'host:port,host:port of the Sentinels (the master is found through them)'],
  'sentinel-master': ['ASYNQLENS_REDIS_SENTINEL_MASTER', 'the master name the Sentinels monitor'],
  'sentinel-username': ['ASYNQLENS_REDIS_SENTINEL_USERNAME', 'ACL user for the Sentinels themselves'],
  'sentinel-password': ['ASYNQLENS_REDIS_SENTINEL_PASSWORD', 'password for the Sentinels themselves'],
  'cluster-nodes': ['ASYNQLENS_REDIS_CLUSTER_NODES', 'host:port,host:port seed nodes of a Redis Cluster'],
  'tls-ca': ['ASYNQLENS_REDIS_TLS_CA_FILE', 'PEM file of the CA that signed Redis\' certificate'],
  'tls-cert': ['ASYNQLENS_REDIS_TLS_CERT_FILE', 'client certificate (PEM) for mutual TLS'],
  'tls-key': ['ASYNQLENS_REDIS_TLS_KEY_FILE', 'client key (PEM) for mutual TLS'],
  'tls-servername': ['ASYNQLENS_REDIS_TLS_SERVERNAME', 'name to verify Redis\' certificate against'],
  'tls-insecure': ['ASYNQLENS_REDIS_TLS_INSECURE', 'skip certificate verification (testing only)', true],
  'command-timeout-ms': ['ASYNQLENS_COMMAND_TIMEOUT_MS', 'a Redis command not answered in this time fails with 503'],
  host: ['ASYNQLENS_HOST', 'address to listen on (default 0.0.0.0; 127.0.0.1 with --auth none)'],
  port: ['PORT', 'port to listen on (default 8080)'],
  'base-path': ['ASYNQLENS_BASE_PATH', 'URL prefix, e.g. /asynq; must equal the one the build was made with'],
  'read-only': ['ASYNQLENS_READ_ONLY', 'refuse every mutation', true],
  auth: ['ASYNQLENS_AUTH', 'login (default), proxy or none'],
  'unsafe-no-auth-on-network': ['ASYNQLENS_UNSAFE_NO_AUTH_ON_NETWORK', 'allow --auth none on a non-loopback --host: anyone who reaches it acts as operator', true],
  'allowed-hosts': ['ASYNQLENS_ALLOWED_HOSTS', 'host names the console answers to besides localhost (comma-separated, *.example.com allowed)'],
  'frame-ancestors': ['ASYNQLENS_FRAME_ANCESTORS', "who may frame the console: 'none' (default), 'self' or origins, space-separated"],
  users: ['ASYNQLENS_USERS', 'name:role:hash entries, comma-separated (roles: viewer, operator)'],
  'users-file': ['ASYNQLENS_USERS_FILE', 'file with one "name role hash" per line'],
  'session-secret': ['ASYNQLENS_SESSION_SECRET', 'key that signs session cookies (32+ characters)'],
  'proxy-user-header': ['ASYNQLENS_PROXY_USER_HEADER', 'with --auth proxy: header carrying the user name'],
  'proxy-secret': ['ASYNQLENS_PROXY_SECRET', 'with --auth proxy: secret the proxy sends to prove itself'],
  audit: ['ASYNQLENS_AUDIT', 'on (default) or off: record every change in the audit log'],
  'metrics-token': ['ASYNQLENS_METRICS_TOKEN', 'bearer token that may read /metrics without a session'],
  'routing-file': ['ASYNQLENS_ROUTING_FILE', 'JSON file of the task patterns your workers register'],
};

const USAGE = `Usage: asynqlens [options]
       asynqlens hash-password      (reads a password on stdin, prints the hash for --users)

Runs the asynqlens web console. Every option can also be given as the environment variable
shown; the option wins.

${Object.entries(SETTINGS)
  .map(([flag, [envName, help, bool]]) => `  --${flag}${bool ? '' : ' <value>'}`.padEnd(32) + `${help}\n${' '.repeat(32)}[${envName}]`)
  .join('\n')}
  --help, --version

Examples:
  asynqlens --redis-url rediss://app:secret@redis.internal:6380/0 --users-file /etc/asynqlens/users
  asynqlens --auth none --redis-url redis://127.0.0.1:6379      (loopback only, no login)
  asynqlens --allowed-hosts asynqlens.example.com --users-file /etc/asynqlens/users
  asynqlens --cluster-nodes 10.0.0.1:6379,10.0.0.2:6379 --read-only --auth proxy \\
            --proxy-user-header x-forwarded-user --proxy-secret "$PROXY_SECRET"
`;

function fail(message) {
  process.stderr.write(`asynqlens: ${message}\n`);
  process.exit(2);
}

/**
 * The standalone server: next to this file when shipped inside it, or in the checkout's build.
 * Returns its folder and the name of its build folder inside (`.next` unless built elsewhere).
 */
function findServer() {
  const builds = [resolve(here, '..'), resolve(here, '..', process.env.ASYNQLENS_DIST_DIR || '.next', 'standalone')];
  for (const dir of builds) {
    if (!existsSync(join(dir, 'server.js'))) continue;
    const distDir = readdirSync(dir).find((name) => name.startsWith('.next') && existsSync(join(dir, name, 'required-server-files.json')));
    if (distDir) return { dir, distDir };
  }
  return fail('no build found: run `npm run build` first (it writes .next/standalone)');
}

/**
 * The hash the server verifies (lib/server/auth/scrypt-hash.ts, the same parameters: N=2^15,
 * r=8, p=1, 16-byte salt, 32-byte key, NFC-normalised password):
 * scrypt$N$r$p$salt$hash in base64. tests/unit/launcher-hash.test.ts checks the two agree.
 */
function hashPassword(password) {
  const N = 2 ** 15;
  const r = 8;
  const p = 1;
  const salt = randomBytes(16);
  const hash = scryptSync(password.normalize('NFC'), salt, 32, { N, r, p, maxmem: 256 * N * r });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/**
 * Wraps http.createServer, which Next's standalone server calls once for its server, so that
 * each request first passes through here:
 * - its TCP peer address goes to the app in `x-asynqlens-peer`, overwriting any header of that
 *   name the client sent: the sign-in throttle counts attempts per peer
 *   (lib/server/auth/client-address.ts), and a route handler never sees the socket. The app
 *   trusts the header only because ASYNQLENS_PEER_FROM_LAUNCHER says this wrapper is in place;
 * - an API request that `take` accepts (the API lane, api-lane.mjs) is answered by its route
 *   directly; the rest go to Next.
 */
function wrapServer(take) {
  const create = http.createServer;
  http.createServer = (...args) => {
    const at = args.findIndex((a) => typeof a === 'function');
    if (at >= 0) {
      const listener = args[at];
      args[at] = (req, res) => {
        const raw = [];
        for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
          if (req.rawHeaders[i].toLowerCase() !== 'x-asynqlens-peer') raw.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
        }
        req.rawHeaders = [...raw, 'x-asynqlens-peer', req.socket.remoteAddress ?? ''];
        req.headers['x-asynqlens-peer'] = req.socket.remoteAddress ?? '';
        if (take(req, res)) return undefined;
        return listener(req, res);
      };
    }
    return create.apply(http, args);
  };
  process.env.ASYNQLENS_PEER_FROM_LAUNCHER = '1';
}

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

const argv = process.argv.slice(2);
if (argv[0] === 'hash-password') {
  if (process.stdin.isTTY) process.stderr.write('Password (input shown; pipe it in to hide it): ');
  const password = await readStdin();
  if (password.length === 0) fail('hash-password: the password is empty');
  process.stdout.write(`${hashPassword(password)}\n`);
  process.exit(0);
}

const options = { help: { type: 'boolean' }, version: { type: 'boolean' } };
for (const [flag, [, , bool]] of Object.entries(SETTINGS)) options[flag] = { type: bool ? 'boolean' : 'string' };
let values;
try {
  ({ values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false }));
} catch (err) {
  fail(`${err.message}\n\n${USAGE}`);
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

if (values.version) {
  const pkg = [join(findServer().dir, 'package.json'), join(here, '..', 'package.json')].find(existsSync);
  process.stdout.write(`${pkg ? JSON.parse(readFileSync(pkg, 'utf8')).version : 'unknown'}\n`);
  process.exit(0);
}

for (const [flag, [envName, , bool]] of Object.entries(SETTINGS)) {
  if (values[flag] === undefined) continue;
  process.env[envName] = bool ? (values[flag] ? '1' : '0') : values[flag];
}

const port = process.env.PORT ?? '8080';
if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) fail(`--port / PORT: "${port}" is not a port number (1–65535)`);

// Without authentication only this machine may connect, unless an address is chosen explicitly.
const auth = process.env.ASYNQLENS_AUTH ?? 'login';
if (!['login', 'proxy', 'none'].includes(auth)) fail(`--auth / ASYNQLENS_AUTH: "${auth}" must be login, proxy or none`);
// Anywhere else, only with a flag whose name says what it does.
const host = process.env.ASYNQLENS_HOST || (auth === 'none' ? '127.0.0.1' : '0.0.0.0');
if (auth === 'none' && !/^(127\.\d+\.\d+\.\d+|::1|localhost)$/.test(host)) {
  const unsafe = ['1', 'true'].includes(process.env.ASYNQLENS_UNSAFE_NO_AUTH_ON_NETWORK ?? '');
  if (!unsafe) {
    fail(
      `--auth none with --host ${host}: refusing to serve without authentication on a network address, where anyone who reaches it can act on your queues.\n` +
        `  Use --auth login (--users-file) or --auth proxy, or listen on 127.0.0.1. To do it anyway, add --unsafe-no-auth-on-network [ASYNQLENS_UNSAFE_NO_AUTH_ON_NETWORK=1]\n` +
        '  and list the names it is reached by in --allowed-hosts [ASYNQLENS_ALLOWED_HOSTS].',
    );
  }
  process.stderr.write(
    `asynqlens: WARNING: UNSAFE: authentication is off and the console listens on ${host} (--unsafe-no-auth-on-network): anyone who reaches it can act on your queues as operator\n`,
  );
}

// The settings above are checked before the build is looked for: a refusal needs no build.
const { dir: serverDir, distDir } = findServer();

// The base path is part of the build (links and asset URLs); a different one cannot be served.
const built = JSON.parse(readFileSync(join(serverDir, distDir, 'required-server-files.json'), 'utf8')).config?.basePath ?? '';
const wanted = (process.env.ASYNQLENS_BASE_PATH ?? built).replace(/\/+$/, '');
if (wanted !== built) {
  fail(`--base-path / ASYNQLENS_BASE_PATH: this build serves under "${built || '/'}"; rebuild with ASYNQLENS_BASE_PATH=${wanted} npm run build`);
}

// Next's server reads HOSTNAME, which shells and containers often set to the machine's name.
process.env.HOSTNAME = host;
process.env.PORT = port;
process.env.NODE_ENV = 'production';
process.env.NEXT_TELEMETRY_DISABLED ??= '1';
process.chdir(serverDir);
// ASYNQLENS_API_LANE=off sends every request through Next (the bench compares the two ways).
const lane = process.env.ASYNQLENS_API_LANE === 'off' ? () => false : apiLane({ serverDir, distDir, basePath: built });
wrapServer(lane);
await import(pathToFileURL(join(serverDir, 'server.js')).href);
