export * from './limits.js';
export * from './extensions.js';
export * from './options.js';
export * from './response.js';
export * from './errors.js';
export * from './validation.js';
