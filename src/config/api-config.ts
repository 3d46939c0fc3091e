/**
 * Where the parse API is and how to authenticate: explicit settings (flags, library options) first, then the
 * environment as read by readEnvironment (DOCMILL_* variables, then the FIRECRAWL_* ones users of the hosted API
 * already have set).
 */
import { nonEmpty, type DocmillEnvironment } from './environment.js';

export interface ApiConfig {
  apiUrl: string | undefined;
  apiKey: string | undefined;
}

export interface ApiFlags {
  apiUrl?: string | undefined;
  apiKey?: string | undefined;
}

export function resolveApiConfig(flags: ApiFlags, environment?: Pick<DocmillEnvironment, 'apiUrl' | 'apiKey'>): ApiConfig {
  return {
    apiUrl: nonEmpty(flags.apiUrl) ?? environment?.apiUrl,
    apiKey: nonEmpty(flags.apiKey) ?? environment?.apiKey,
  };
}
