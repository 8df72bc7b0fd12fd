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

/**
 * Options of `PostgresCluster.fromClusterName()`.
 */
export interface ClusterReferenceOptions {
  /**
   * The Cluster's namespace.
   * @default - the namespace of whatever refers to it (its chart's)
   */
  readonly namespace?: string;
  /**
   * Whether the Cluster is managed outside this program. A reference to a Cluster that is not
   * external is checked at synth against the app's `PostgresCluster`s: a name one or two letters
   * away from a Cluster of the app in the same namespace is refused as a misspelling ("did you
   * mean 'orders'?"). Declare the Cluster external when such a name is right.
   * @default false
   */
  readonly external?: boolean;
}
