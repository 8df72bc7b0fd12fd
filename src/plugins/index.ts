export * from './plugin';
export * from './pod-security';
