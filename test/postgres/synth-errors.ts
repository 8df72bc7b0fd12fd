import { Chart, Testing } from 'cdk8s';

const HEADER = 'Validation failed with the following errors:';

/**
 * The lines of the validation error that synthesizing `chart` raises (`[<path>] <message>`),
 * or `[]` when it synthesizes. Any other error propagates.
 */
export function synthErrors(chart: Chart): string[] {
  try {
    Testing.synth(chart);
  } catch (e) {
    const message = (e as Error).message;
    if (!message.startsWith(HEADER)) throw e;
    return message
      .slice(HEADER.length)
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
  }
  return [];
}
