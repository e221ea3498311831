/** The served OpenAPI document read as fuzz targets: operations and plausible values for their schemas. */
import { jsonType, type Rng, WEIRD_VALUES } from './fuzz-values.js';

// ---------------------------------------------------------------------------------------------
// The OpenAPI document

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
}

export interface Operation {
  method: string;
  /** With `{param}` placeholders. */
  path: string;
  pathParams: string[];
  queryParams: { name: string; required: boolean; schema: JsonSchema }[];
  body: JsonSchema | null;
}

export function operationsOf(document: { paths: Record<string, Record<string, any>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const parameters: any[] = op.parameters ?? [];
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, required: !!p.required, schema: p.schema ?? {} })),
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return operations;
}

/** A value that fits the schema most of the time (the fuzz then breaks one thing about it). */
export function plausible(schema: JsonSchema, rng: Rng, depth = 0): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return rng.pick(schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return plausible(rng.pick(variants), rng, depth + 1);
  const type = Array.isArray(schema.type) ? rng.pick(schema.type) : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(schema.properties ?? {})) {
        if (depth < 4 && (schema.required?.includes(key) || rng.chance(0.6))) out[key] = plausible(sub, rng, depth + 1);
      }
      return out;
    }
    case 'array':
      return depth < 4 && schema.items ? Array.from({ length: rng.int(4) }, () => plausible(schema.items!, rng, depth + 1)) : [];
    case 'string': {
      if (schema.format === 'email') return `fuzz${rng.int(1e6)}@example.com`;
      if (schema.format === 'uri') return 'https://example.com/x';
      if (schema.format === 'date-time') return new Date(1_700_000_000_000 + rng.int(1e9)).toISOString();
      const length = Math.max(schema.minLength ?? 1, Math.min(schema.maxLength ?? 12, 12));
      return 'f'.repeat(length);
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
      const max = schema.maximum ?? min + 100;
      return Math.floor(min + rng.next() * Math.max(0, Math.min(max - min, 1000)));
    }
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    default:
      return rng.pick(WEIRD_VALUES);
  }
}


/** A value of a type the schema does not allow (null when the schema allows anything we have). */
export function wrongTypeFor(schema: JsonSchema | undefined, rng: Rng): { value: unknown } | null {
  if (!schema || schema.anyOf || schema.oneOf || schema.type === undefined) return null;
  const allowed = new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
  if (allowed.has('number')) allowed.add('integer');
  const candidates = WEIRD_VALUES.filter((v) => !allowed.has(jsonType(v)));
  return candidates.length > 0 ? { value: rng.pick(candidates) } : null;
}
