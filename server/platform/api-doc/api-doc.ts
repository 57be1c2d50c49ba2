import type { z } from 'zod';
import type { RouteAuth } from '../route-auth/route-auth.ts';

/** Classic zod and zod/mini schemas alike (the shared contracts use zod/mini). */
export type AnySchema = z.core.$ZodType;
export type ObjectSchema = z.core.$ZodObject;

export type ApiMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ApiHeaderDoc {
  description: string;
  schema: AnySchema;
}

/** Named sample values, shown by the API reference beside the schema. */
export type ApiExamples = Record<string, { summary: string; value: unknown }>;

export interface ApiResponseDoc {
  description: string;
  /** Body schema; omitted for answers without a body. */
  schema?: AnySchema;
  /** Defaults to application/json. */
  contentType?: string;
  headers?: Record<string, ApiHeaderDoc>;
  examples?: ApiExamples;
}

/**
 * One endpoint as the API reference shows it: the contract of a `defineRoute` (decision 168),
 * from which its handler is registered and the document is built.
 */
export interface ApiOperationDoc {
  method: ApiMethod;
  /** Path as Hono registers it (`/account/v1/releases/:version`); converted to `{version}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Which host serves it: the account service (default) or the website's own origin. */
  origin?: 'account' | 'site';
  /**
   * Who may call it and how they prove it (decision 225): drives the CSRF check, the middleware
   * before the handler and the operation's `security` in the document.
   */
  auth: RouteAuth;
  request?: {
    query?: ObjectSchema;
    pathParams?: ObjectSchema;
    headers?: ObjectSchema;
    body?: AnySchema;
    /** Defaults to application/json. */
    bodyContentType?: string;
    bodyRequired?: boolean;
    bodyExamples?: ApiExamples;
  };
  responses: Record<number, ApiResponseDoc>;
}

/** Identity helper that type-checks a domain's list of endpoint docs. */
export function defineApiDocs(docs: ApiOperationDoc[]): ApiOperationDoc[] {
  return docs;
}
