/**
 * Which `TOKIO_WORKER_THREADS` values are dropped before the engine starts: exactly those tokio would abort the
 * process on (or overflow on), so that a user's valid setting still takes effect.
 */
import { describe, expect, it } from 'vitest';
import { dropInvalidRuntimeSettings } from '../../src/config/native-runtime.js';

describe('dropInvalidRuntimeSettings', () => {
  it.each(['', '0', 'auto', '-2', ' 2', '2.5', '0x10', '123456'])('drops %j and says so', (value) => {
    const env: NodeJS.ProcessEnv = { TOKIO_WORKER_THREADS: value, PATH: '/usr/bin' };
    expect(dropInvalidRuntimeSettings(env)).toEqual({ name: 'TOKIO_WORKER_THREADS', value });
    expect(env).toEqual({ PATH: '/usr/bin' });
  });

  it.each(['1', '2', '16', '99999'])('keeps %j', (value) => {
    const env: NodeJS.ProcessEnv = { TOKIO_WORKER_THREADS: value };
    expect(dropInvalidRuntimeSettings(env)).toBeUndefined();
    expect(env).toEqual({ TOKIO_WORKER_THREADS: value });
  });

  it('changes nothing when it is not set', () => {
    const env: NodeJS.ProcessEnv = { HOME: '/home/user' };
    expect(dropInvalidRuntimeSettings(env)).toBeUndefined();
    expect(env).toEqual({ HOME: '/home/user' });
  });
});
