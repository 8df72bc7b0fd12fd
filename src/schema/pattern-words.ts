/*
 * Words for the CRD patterns users meet most, so that a refused value reads as what to write
 * ("write 20Gi") rather than as a regular expression.
 */

/**
 * The pattern of a Kubernetes quantity, as controller-gen writes it for every `resource.Quantity`
 * field of a CRD (the pinned CloudNativePG and plugin CRDs carry it, e.g. the Cluster's
 * `spec.storage.pvcTemplate.resources.requests`).
 */
const QUANTITY = '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

/**
 * The pattern of a Barman retention policy, as the pinned CRDs declare it (the Cluster's
 * `spec.backup.retentionPolicy`, the Barman Cloud ObjectStore's `spec.retentionPolicy`).
 */
const RETENTION = '^[1-9][0-9]*[dwm]$';

/** The words of a refused pattern: the problem, what is allowed, and the fix. */
export interface PatternWords {
  readonly problem: string;
  readonly allowed: string;
  readonly fix: string;
}

/** The value the user most likely meant, as a quantity: `20 GB` and `20G` become `20Gi`. */
function quantityGuess(value: unknown): string {
  const m = typeof value === 'string' ? /^\s*([0-9]+(?:\.[0-9]+)?)\s*([kKMGTPE])?i?[bB]?\s*$/.exec(value) : null;
  if (m === null) return '20Gi';
  return m[2] === undefined ? m[1] : `${m[1]}${m[2].toUpperCase()}i`;
}

/** The value the user most likely meant, as a retention period: `30 days` becomes `30d`. */
function retentionGuess(value: unknown): string {
  const m = typeof value === 'string' ? /^\s*0*([1-9][0-9]*)\s*(d|days?|w|weeks?|m|months?)\s*$/i.exec(value) : null;
  return m === null ? '30d' : `${m[1]}${m[2][0].toLowerCase()}`;
}

/**
 * The words for a value that does not match `pattern`, when it is one of the patterns above;
 * undefined for any other pattern, which is then quoted as it is.
 * @internal
 */
export function patternWords(pattern: string, value: unknown): PatternWords | undefined {
  if (pattern === QUANTITY) {
    const guess = quantityGuess(value);
    return {
      problem: 'is not a Kubernetes quantity (a number, then a suffix such as Gi, Mi or k, without a space)',
      allowed: `a quantity: write ${guess}`,
      fix: `write ${guess}`,
    };
  }
  if (pattern === RETENTION) {
    const guess = retentionGuess(value);
    return {
      problem: 'is not a retention period (a whole number of days, weeks or months, then d, w or m)',
      allowed: `a period: write ${guess}`,
      fix: `write ${guess}`,
    };
  }
  return undefined;
}
