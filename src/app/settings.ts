/**
 * Settings as the entry points take them in: the environment (read in src/config, the one place that reads it), the
 * one check every number goes through, and the contract's bounds a flag is checked against. The CLI reads them
 * here, so it needs nothing below the app layer.
 */
export { readEnvironment } from '../config/environment.js';
export { defaultRuntimeSettings, dropInvalidRuntimeSettings } from '../config/native-runtime.js';
export { integerSetting } from '../config/numbers.js';
export { MAX_ATTEMPTS } from '../contract/limits.js';
