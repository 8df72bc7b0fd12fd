export * from './log-level';
export * from './versions';
export * from './object-store';
export * from './barman-cloud-names';
export * from './barman-cloud-plugin';
export * from './hello-world-plugin';
export * from './scale-to-zero-plugin';
export * from './plugin-monitoring';
