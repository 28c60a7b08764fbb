import { expect } from 'vitest';
import { InputError } from '../../../src/errors.js';

/** Asserts an InputError (400, BAD_INPUT) for `parameter` whose message starts with the parameter's name and contains `fragment`. */
export function expectInputError(run: () => unknown, parameter: string, fragment: string): void {
  let caught: unknown;
  try {
    run();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(InputError);
  const error = caught as InputError;
  expect(error.parameter).toBe(parameter);
  expect(error.status).toBe(400);
  expect(error.code).toBe('BAD_INPUT');
  expect(error.message.startsWith(`${parameter}: `), error.message).toBe(true);
  expect(error.message).toContain(fragment);
}
