/*
 * A PostgreSQL size setting (`shared_buffers`, `min_wal_size`, ...) read the way the Cluster
 * webhook reads it (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go
 * parsePostgresQuantityValue): turned into a Kubernetes quantity, so that it compares with
 * storage sizes and memory requests.
 */
import { isGoInt } from '../../manifests/go-numbers';
import { memoized } from '../../manifests/memo';
import { QuantityValue, parseQuantity } from '../../manifests/quantity';

/** A PostgreSQL size as the webhook turns it into a Kubernetes quantity. @internal */
export interface PostgresSize {
  /** The Kubernetes quantity text the webhook builds, e.g. `1Gi` for `1GB`, `80Mi` for `80`. */
  readonly quantity: string;
  /** Its amount, for comparisons with `compareQuantities`. */
  readonly value: QuantityValue;
}

/**
 * A PostgreSQL size as the webhook reads it, or `undefined` when the webhook finds it invalid:
 * a bare integer means megabytes; otherwise the text must end in `B`, and `kB`, `MB`, `GB`, `TB`
 * (also `PB`, `EB`) are the binary multiples (a kilobyte is 1024 bytes, as in PostgreSQL), with
 * spaces allowed before the unit (`2 GB`). So `1GB`, `512 MB`, `1.5GB` and `1B` are sizes;
 * `1G`, `70M`, `1Gb`, `1kb` and `1.5B` are not.
 * @internal
 */
export const parsePostgresQuantityValue: (value: string) => PostgresSize | undefined = memoized(readPostgresSize);

function readPostgresSize(value: string): PostgresSize | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  let text = isGoInt(value) ? `${value}MB` : value;
  if (!text.endsWith('B')) return undefined;
  text = text.slice(0, -1).replace(/ /g, '');
  if (!isGoInt(text)) text = `${text}i`.replace(/ki/g, 'Ki');
  const parsed = parseQuantity(text);
  return parsed === undefined ? undefined : { quantity: text, value: parsed };
}
