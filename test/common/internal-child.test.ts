import { Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { invalid } from '../../src/manifests/errors';
import { addChecks, internalChild } from '../../src/schema/guard';

/** A construct of the user's, with a child it marks as its own and one it does not. */
function build(): Chart {
  const chart = Testing.chart();
  const outer = new Construct(chart, 'outer');
  const inner = new Construct(outer, internalChild(outer, 'Inner'));
  const deeper = new Construct(inner, internalChild(inner, 'Deeper'));
  const visible = new Construct(outer, 'Visible');
  addChecks(deeper, () => invalid('x', 'prop', 1, 'is wrong', 'fix it'));
  addChecks(visible, () => invalid('y', 'prop', 2, 'is wrong', 'fix it'));
  return chart;
}

describe('internalChild', () => {
  test('an addChecks line of a marked child (at any depth) is reported on the nearest unmarked ancestor; an unmarked child keeps its path', () => {
    const chart = build();
    let message = '';
    try {
      Testing.synth(chart);
    } catch (e) {
      message = (e as Error).message;
    }
    const lines = message
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
    expect(lines).toEqual([`[${chart.node.path}/outer] x: prop 1 is wrong; fix it`, `[${chart.node.path}/outer/Visible] y: prop 2 is wrong; fix it`]);
  });

  test('returns the id, so that it can wrap the id of the child it marks', () => {
    const scope = new Construct(Testing.chart(), 's');
    expect(internalChild(scope, 'Plugin')).toBe('Plugin');
  });
});
