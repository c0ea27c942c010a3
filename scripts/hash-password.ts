/**
 * Prints the scrypt hash of a password for ASYNQLENS_USERS / ASYNQLENS_USERS_FILE.
 *
 *   npm run hash-password              # asks twice, without echo, on a terminal
 *   printf %s "$PASS" | npm run -s hash-password   # reads stdin when it is not a terminal
 *
 * Then: ASYNQLENS_USERS='alice:operator:<the hash>'.
 */
import { createInterface } from 'node:readline';
import { hashPassword } from '../lib/server/auth/scrypt-hash';

/** One line from a terminal with echo off (raw mode, so nothing is shown while typing). */
function askHidden(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stderr.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    let text = '';
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          process.stderr.write('\n');
          return resolve(text);
        }
        if (ch === '\u0003') {
          stdin.setRawMode(false);
          return reject(new Error('cancelled'));
        }
        if (ch === '\u007f' || ch === '\b') text = text.slice(0, -1);
        else text += ch;
      }
    };
    stdin.on('data', onData);
  });
}

async function readPiped(): Promise<string> {
  const lines: string[] = [];
  for await (const line of createInterface({ input: process.stdin })) lines.push(line);
  return lines.join('\n').replace(/\r?\n$/, '');
}

async function main(): Promise<number> {
  let password: string;
  if (process.stdin.isTTY) {
    password = await askHidden('Password: ');
    if ((await askHidden('Again: ')) !== password) {
      console.error('The two passwords differ; nothing printed.');
      return 1;
    }
  } else {
    password = (await readPiped()).split('\n')[0] ?? '';
  }
  if (password.length < 8) {
    console.error('A password needs 8 or more characters; nothing printed.');
    return 1;
  }
  console.log(await hashPassword(password));
  return 0;
}

process.exit(await main());
