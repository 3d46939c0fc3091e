/**
 * Where the parse API is and how to authenticate: flags first, then DOCMILL_* variables, then the FIRECRAWL_*
 * variables users of the hosted API already have set.
 */
export interface ApiConfig {
  apiUrl: string | undefined;
  apiKey: string | undefined;
}

export interface ApiFlags {
  apiUrl?: string | undefined;
  apiKey?: string | undefined;
}

export function resolveApiConfig(flags: ApiFlags, env: NodeJS.ProcessEnv = process.env): ApiConfig {
  return {
    apiUrl: nonEmpty(flags.apiUrl) ?? nonEmpty(env.DOCMILL_API_URL) ?? nonEmpty(env.FIRECRAWL_API_URL),
    apiKey: nonEmpty(flags.apiKey) ?? nonEmpty(env.DOCMILL_API_KEY) ?? nonEmpty(env.FIRECRAWL_API_KEY),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
