import { announce } from './fc-config';
import { Scenario, junkProperty, validProperty } from './harness';
import { JunkTally, newTally } from './mutation';
import { reportWarnings } from './oracle';

/**
 * Sets up one property test file: prints its seed, reports at the end the doctor warnings seen
 * and how junk fared, and returns `properties(name, scenario)`, which adds the valid-props and
 * the junk-prop property of a scenario.
 */
export function propertyFile(file: string): { properties: (name: string, scenario: Scenario<unknown>) => void; tally: JunkTally } {
  announce(file);
  const tally = newTally();
  afterAll(() => {
    reportWarnings(file);

    console.log(`${file}: junk rejected ${tally.rejected} times, accepted ${tally.accepted} times; props named: ${[...tally.props.keys()].sort().join(', ')}`);
  });
  const properties = (name: string, scenario: Scenario<unknown>): void => {
    describe(name, () => {
      test('valid props: synthesis succeeds, correct YAML, no doctor error, names agree', () => validProperty(scenario));
      test('one prop replaced with junk: own error naming the prop, or correct YAML', () => junkProperty(scenario, tally));
    });
  };
  return { properties, tally };
}
