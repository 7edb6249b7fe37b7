/** A JSON Schema (2020-12 in the exported files; the draft-07 subset inside the AsyncAPI document). */
export type JsonSchema = { [keyword: string]: unknown };
