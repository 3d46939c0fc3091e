export * from './errors.js';
export * from './clock.js';
export * from './endpoint.js';
export * from './retry-policy.js';
export * from './upload-source.js';
export * from './multipart.js';
export * from './parse-backend.js';
export * from './remote-parse-api.js';
