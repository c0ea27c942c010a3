import { describe, expect, it } from 'vitest';
import { parseDemoArgs } from '../../../scripts/demo/options';

describe('the demo command line', () => {
  it('takes --port N and --port=N over $PORT, and 8080 without either', () => {
    expect(parseDemoArgs([]).port).toBe(8080);
    expect(parseDemoArgs([], { PORT: '9000' }).port).toBe(9000);
    expect(parseDemoArgs(['--port', '8181'], { PORT: '9000' }).port).toBe(8181);
    expect(parseDemoArgs(['--no-web', '--port=8282']).port).toBe(8282);
  });

  it('reads --no-web and --check[=SECS]', () => {
    expect(parseDemoArgs(['--no-web', '--check'])).toEqual({ port: 8080, web: false, checkAfterSeconds: 60 });
    expect(parseDemoArgs(['--check=5']).checkAfterSeconds).toBe(5);
  });

  it('refuses a bad port, a missing value and an unknown option instead of ignoring them', () => {
    expect(() => parseDemoArgs(['--port'])).toThrow(/needs a value/);
    expect(() => parseDemoArgs(['--port', '70000'])).toThrow(/not a port number/);
    expect(() => parseDemoArgs(['--port', 'abc'])).toThrow(/not a port number/);
    expect(() => parseDemoArgs(['--prot', '1'])).toThrow(/unknown option/);
  });
});
