import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { apiDocument } from '#server/domains.ts';

const mediaTypeSchema = z.looseObject({
  schema: z.unknown().optional(),
  examples: z.record(z.string(), z.looseObject({ value: z.unknown() })).optional(),
});
const responseSchema = z.looseObject({
  content: z.record(z.string(), mediaTypeSchema).optional(),
});
const documentSchema = z.looseObject({
  paths: z.record(
    z.string(),
    z.record(
      z.string(),
      z.looseObject({
        responses: z.record(z.string(), responseSchema),
        requestBody: z.looseObject({ content: z.record(z.string(), mediaTypeSchema) }).optional(),
      }),
    ),
  ),
  components: z.unknown(),
});

type DocumentedResponse = z.infer<typeof responseSchema>;

interface Operation {
  method: string;
  pattern: RegExp;
  name: string;
  responses: Record<string, DocumentedResponse>;
  requestBody: Record<string, z.infer<typeof mediaTypeSchema>>;
}

/**
 * Checks the answers the API tests see against the OpenAPI document the server serves: a
 * documented operation must answer a documented status, with a documented content type, and a
 * JSON body must validate against that status's schema. `createTestApp` runs it on every
 * `app.request`, so each API test also tests the document.
 */
export class DocumentedAnswers {
  private readonly operations: Operation[];
  private readonly components: unknown;
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor() {
    const document = documentSchema.parse(
      apiDocument({ accountBaseUrl: 'http://localhost', siteBaseUrl: 'http://localhost' }),
    );
    this.components = document.components;
    this.operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        method: method.toUpperCase(),
        pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`),
        name: `${method.toUpperCase()} ${path}`,
        responses: operation.responses,
        requestBody: operation.requestBody?.content ?? {},
      })),
    );
  }

  /** What is wrong with this answer by the document; undefined when it conforms or is not documented. */
  async problemWith(method: string, url: URL, res: Response): Promise<string | undefined> {
    const operation = this.operations.find(
      (candidate) => candidate.method === method && candidate.pattern.test(url.pathname),
    );
    if (!operation) return undefined;
    const where = `${method} ${url.pathname}${url.search} → ${res.status}`;
    const documented = operation.responses[String(res.status)];
    if (!documented) return `${where}: ${operation.name} documents no ${res.status} answer`;
    const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    const contents = documented.content ?? {};
    if (Object.keys(contents).length === 0) {
      const length = (await res.clone().arrayBuffer()).byteLength;
      return length === 0 ? undefined : `${where}: documented without a body, sent ${length} bytes`;
    }
    const content = contents[mediaType];
    if (!content) return `${where}: content type ${mediaType || '(none)'} is not documented`;
    if (mediaType !== 'application/json' || content.schema === undefined) return undefined;
    const validate = this.validatorFor(`${operation.name} ${res.status}`, content.schema);
    const body: unknown = await res.clone().json();
    if (validate(body)) return undefined;
    return `${where}: the body ${JSON.stringify(body)} does not match the documented schema: ${this.ajv.errorsText(validate.errors)}`;
  }

  /** Every example in the document, as `operation where name`, and what is wrong with it if anything. */
  examples(): Array<{ name: string; problem: string | undefined }> {
    return this.operations.flatMap((operation) => {
      const media = [
        ...Object.entries(operation.requestBody).map(
          ([type, m]) => [`request ${type}`, m] as const,
        ),
        ...Object.entries(operation.responses).flatMap(([status, response]) =>
          Object.entries(response.content ?? {}).map(
            ([type, m]) => [`${status} ${type}`, m] as const,
          ),
        ),
      ];
      return media.flatMap(([where, { schema, examples }]) =>
        Object.entries(examples ?? {}).map(([name, example]) => {
          const label = `${operation.name} ${where} ${name}`;
          const validate = this.validatorFor(`${operation.name} ${where}`, schema ?? {});
          return {
            name: label,
            problem: validate(example.value) ? undefined : this.ajv.errorsText(validate.errors),
          };
        }),
      );
    });
  }

  private validatorFor(key: string, schema: unknown): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      // The components ride along so that `#/components/schemas/…` resolves inside the schema.
      validate = this.ajv.compile({
        ...z.record(z.string(), z.unknown()).parse(schema),
        components: this.components,
      });
      this.validators.set(key, validate);
    }
    return validate;
  }
}
