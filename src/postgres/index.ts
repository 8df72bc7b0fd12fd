export * from './cluster-bootstrap';
export * from './postgres-cluster';
export * from './plugin-backup';
export * from './plugin-scheduled-backup';
