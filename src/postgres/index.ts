export * from './backup-schedule';
export * from './cluster-bootstrap';
export * from './cluster-image';
export type { ClusterSpecPassthrough } from './cluster-spec-passthrough';
export * from './external-cluster-source';
export * from './postgres-cluster';
export * from './plugin-backup';
export * from './plugin-scheduled-backup';
export * from './secret-key-reference';
