/**
 * A CloudNativePG Cluster that Backups, ScheduledBackups and other objects refer to: a
 * `PostgresCluster` of this program, or one managed elsewhere (`PostgresCluster.fromClusterName`).
 */
export interface IPostgresCluster {
  /** The Cluster's `metadata.name`. */
  readonly name: string;
  /** The Cluster's namespace; undefined when it follows the chart of whatever refers to it. */
  readonly namespace?: string;
}
