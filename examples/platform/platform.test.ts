import { Testing } from 'cdk8s';
import { checkManifests } from 'cdk8s-cnpg-i';
import { OPERATOR_NAMESPACE, platform } from './platform';

function synth() {
  const { system, databases } = platform(Testing.app());
  return { system: Testing.synth(system), databases: Testing.synth(databases) };
}

// Every change to the YAML shows in review: `npx jest -u` accepts it.
test('the platform renders as the snapshot', () => {
  expect(synth()).toMatchSnapshot();
});

// The same check `cdk8s synth` runs through cdk8s.yaml: no error, and no warning either.
test('the doctor finds nothing to report', () => {
  const { system, databases } = synth();
  const findings = checkManifests([...system, ...databases], { operatorNamespace: OPERATOR_NAMESPACE });
  expect(findings.map((f) => `${f.severity} ${f.ruleId} ${f.message}`)).toEqual([]);
});
