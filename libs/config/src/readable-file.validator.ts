import { accessSync, constants, statSync } from 'node:fs';
import { registerDecorator, ValidationOptions } from 'class-validator';

/** The value names a file this process can read (a certificate, a key, a module), checked once at boot. */
export function IsReadableFile(options: ValidationOptions = {}): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isReadableFile',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'must name a readable file', ...options },
      validator: {
        validate(value: unknown) {
          if (typeof value !== 'string' || value === '') return false;
          try {
            accessSync(value, constants.R_OK);
            return statSync(value).isFile();
          } catch {
            return false;
          }
        },
      },
    });
}

/** The value may not be set together with `other`: which of the two would win is not for a program to guess. */
export function NotWith(other: string): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'notWith',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `may not be set together with ${other}` },
      validator: {
        validate: (_value: unknown, args) => (args?.object as Record<string, unknown>)[other] === undefined,
      },
    });
}
