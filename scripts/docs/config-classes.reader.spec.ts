import 'reflect-metadata';
import { IsInt, IsOptional, IsString, Max, Min, ValidateIf } from 'class-validator';
import { classDocs } from '../lib/doc-comments';
import { ConfigClass, ConfigClassSource, variablesOf } from './config-classes.reader';

/* The doc comments are read from this file: these classes are declared at its top level, as in a *.env.ts file. */

export class ParentEnv {
  /** Where the data is. */
  @IsString()
  NEEDED: string;

  /** The parent's meaning, replaced below. */
  @IsString()
  URL = 'parent';

  /** Ports, each at least 1. */
  @Min(1, { each: true })
  PORTS: number[] = [];
}

export class ChildEnv extends ParentEnv {
  /** The child's own meaning. */
  override URL = 'child';

  /**
   * Who you are.
   *
   * @default your login name
   */
  @IsOptional()
  @IsString()
  OPERATOR?: string;

  /** Off at 0. */
  @ValidateIf((env: ChildEnv) => env.INTERVAL !== 0)
  @Min(1000)
  INTERVAL = 0;

  @IsInt()
  @Min(1)
  @Max(10)
  SIZE = 5;
}

describe('the variables a configuration class reads, for the configuration reference', () => {
  const runtime: Record<string, ConfigClass> = { ParentEnv, ChildEnv };
  let classes: Map<string, ConfigClassSource>;

  beforeEach(() => {
    classes = new Map(
      classDocs(__filename).map((docs) => [docs.name, { cls: runtime[docs.name], file: __filename, docs }]),
    );
  });

  it('takes each meaning from the nearest declaration, each default from a new instance, bounds that always apply', () => {
    const variables = variablesOf(ChildEnv, classes).map(({ declaredBy, ...variable }) => ({
      ...variable,
      declaredBy: declaredBy.docs.name,
    }));
    expect(variables).toEqual([
      { name: 'URL', declaredBy: 'ChildEnv', value: 'child', meaning: "The child's own meaning.", required: false },
      {
        name: 'OPERATOR',
        declaredBy: 'ChildEnv',
        value: undefined,
        meaning: 'Who you are.',
        defaultTag: 'your login name',
        required: false,
      },
      // Validated only when set to something else than 0: its minimum is no bound of the variable.
      { name: 'INTERVAL', declaredBy: 'ChildEnv', value: 0, meaning: 'Off at 0.', required: false },
      { name: 'SIZE', declaredBy: 'ChildEnv', value: 5, required: false, min: 1, max: 10 },
      { name: 'NEEDED', declaredBy: 'ParentEnv', value: undefined, meaning: 'Where the data is.', required: true },
      // A bound of each entry is no bound of the list.
      { name: 'PORTS', declaredBy: 'ParentEnv', value: [], meaning: 'Ports, each at least 1.', required: false },
    ]);
  });

  it('names a variable that no configuration class declares', () => {
    classes.delete('ParentEnv');
    expect(() => variablesOf(ChildEnv, classes)).toThrow(
      'ChildEnv reads NEEDED, PORTS, which no class of a *.env.ts file declares',
    );
  });
});
