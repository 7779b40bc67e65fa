import type { VocabularyEntry } from './vocabulary';

export type SchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';

/**
 * The part of JSON Schema draft-07 the config schemas use, plus the keywords VS Code's JSON tooling
 * reads (`markdownDescription`, `enumDescriptions`…), which ajv knows as an added vocabulary.
 */
export type JsonSchema = {
  $schema?: string;
  $id?: string;
  $comment?: string;
  title?: string;
  description?: string;
  markdownDescription?: string;
  deprecationMessage?: string;
  type?: SchemaType;
  properties?: Record<string, JsonSchema>;
  patternProperties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  required?: readonly string[];
  items?: JsonSchema;
  uniqueItems?: boolean;
  minItems?: number;
  enum?: readonly string[];
  enumDescriptions?: readonly string[];
  markdownEnumDescriptions?: readonly string[];
  pattern?: string;
  format?: 'uri' | 'date-time';
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  default?: unknown;
  examples?: readonly unknown[];
};

/** The plain description and the richer one VS Code shows on hover. Both cite the protocol section. */
export function described(
  description: string,
  markdownDescription: string,
): Pick<JsonSchema, 'description' | 'markdownDescription'> {
  return { description, markdownDescription };
}

/** A closed set from the vocabulary, with a description for each value. */
export function enumOf(
  entries: readonly VocabularyEntry[],
): Pick<JsonSchema, 'enum' | 'enumDescriptions' | 'markdownEnumDescriptions'> {
  return {
    enum: entries.map((entry) => entry.name),
    enumDescriptions: entries.map((entry) => entry.description),
    markdownEnumDescriptions: entries.map(
      (entry) =>
        `\`${entry.name}\`${entry.risk ? ` (risk: ${entry.risk})` : ''}: ${entry.description}`,
    ),
  };
}

/** A regular expression as a JSON Schema `pattern` (JSON Schema patterns are ECMA-262 sources). */
export function patternOf(regex: RegExp): string {
  return regex.source;
}
