export * from './log-level';
export * from './versions';
export * from './object-store';
