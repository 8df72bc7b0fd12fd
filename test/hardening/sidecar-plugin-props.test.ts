import { announce } from './fc-config';
import { Scenario, junkProperty, validProperty } from './harness';
import { newTally } from './mutation';
import { reportWarnings } from './oracle';
import * as S from './scenarios';

/*
 * Property-based tests of SidecarPlugin on OperatorDeployment.fromDeployment and CnpgOperator.fromManifest: generated valid props synthesize to output that Kubernetes,
 * the upstream CRDs, the restricted Pod Security Standard and the doctor all accept, with the
 * plugin name the same in every place; one prop of valid props replaced with junk gives either
 * this library's own error (naming the construct path and the prop) or such an output.
 */

const FILE = 'sidecar-plugin-props';
announce(FILE);
const tally = newTally();
afterAll(() => {
  reportWarnings(FILE);
  // eslint-disable-next-line no-console
  console.log(`${FILE}: junk rejected ${tally.rejected} times, accepted ${tally.accepted} times; props named: ${[...tally.props.keys()].sort().join(', ')}`);
});

function properties(name: string, scenario: Scenario<unknown>): void {
  describe(name, () => {
    test('valid props: synthesis succeeds, correct YAML, no doctor error, names agree', () => validProperty(scenario));
    test('one prop replaced with junk: own error naming the prop, or correct YAML', () => junkProperty(scenario, tally));
  });
}

properties('SidecarPlugin (both operator hosts, one or two sidecars)', S.sidecarPluginScenario);
