/*
 * PostgreSQL sizes read as the Cluster webhook reads them (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go parsePostgresQuantityValue): a Kubernetes quantity
 * made of a PostgreSQL "numeric with unit".
 */
import { QuantityValue, parseQuantity } from '../../manifests/quantity';
import { goAtoi } from './go-strconv';

/** Whether Go's strconv.Atoi reads `s`. */
const isGoInt = (s: string) => typeof goAtoi(s) === 'bigint';

/**
 * A PostgreSQL size as a Kubernetes quantity, or `undefined` where the webhook's parser fails:
 * a bare integer is megabytes; otherwise the value must end in `B`, spaces are dropped, and the
 * unit before the `B` becomes its binary quantity suffix (`kB` is `Ki`, `MB` is `Mi`, `GB` is
 * `Gi`, `TB` is `Ti`; `2 GB` is `2Gi`, `1024B` is 1024 bytes). `1kb`, `1Mb`, `1G` and `70M` fail.
 * @internal
 */
export function parsePostgresQuantityValue(value: string): QuantityValue | undefined {
  if (value === '') return undefined;
  let v = isGoInt(value) ? `${value}MB` : value;
  if (!v.endsWith('B')) return undefined;
  v = v.slice(0, -1).replace(/ /g, '');
  if (!isGoInt(v)) v = `${v}i`.replace(/ki/g, 'Ki');
  return parseQuantity(v);
}
