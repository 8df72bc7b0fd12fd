import { App, Chart } from 'cdk8s';
import * as lib from '../../src';
import { describeValue } from '../../src/manifests/errors';

// Python, Java, Go and .NET see a CnpgIValidationError as their runtime's error for a JavaScript
// exception: only the message crosses the jsii boundary, so it must hold every field.
function caught(f: () => unknown): lib.CnpgIValidationError {
  try {
    f();
  } catch (e) {
    if (e instanceof lib.CnpgIValidationError) return e;
    throw new Error(`threw ${String(e)}, not a CnpgIValidationError`, { cause: e });
  }
  throw new Error('did not throw');
}

function expectFieldsInMessage(e: lib.CnpgIValidationError): void {
  expect(e.message.startsWith(`${e.constructPath}: ${e.prop} ${describeValue(e.value)} `)).toBe(true);
  expect(e.message).toMatch(/; \S/); // the fix follows the problem
}

test('the message starts with the construct path, the prop and the value, then the problem and the fix', () => {
  const e = new lib.CnpgIValidationError('apps/pg', 'instances', { n: 0 }, 'is not a positive integer', 'write 1 or more');
  expect(e.message).toBe('apps/pg: instances {"n":0} is not a positive integer; write 1 or more');
  expectFieldsInMessage(e);
});

test('errors thrown through the API a jsii language calls carry their fields in the message', () => {
  const errors = [
    caught(() => lib.Doctor.checkManifests([], { cnpgVersion: 'one' })),
    caught(() => lib.Doctor.checkManifests([], { disable: ['CNPGI9999'] })),
    caught(() => lib.Plan.planChanges(42 as unknown as unknown[], [])),
    caught(
      () =>
        new lib.StandalonePlugin(new Chart(new App(), 'cnpg-system', { namespace: 'cnpg-system' }), 'p', {
          pluginName: 'Not A Name',
          image: 'example.com/p:1.0',
          args: ['plugin'],
        }),
    ),
  ];
  for (const e of errors) expectFieldsInMessage(e);
  expect(errors.map((e) => [e.constructPath, e.prop])).toEqual([
    ['checkManifests', 'options.cnpgVersion'],
    ['checkManifests', 'options.disable[0]'],
    ['planChanges', 'previous'],
    ['cnpg-system/p', 'pluginName'],
  ]);
});
