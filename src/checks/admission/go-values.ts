/*
 * A manifest's fields as the webhook's Go structs hold them once decoded: an absent string is
 * `""`, an absent integer 0, an absent pointer nil. A value of the wrong type (which the API
 * server's schema refuses before the webhook) is read as absent, or, where that would invent a
 * verdict, as unknown.
 */
import { asString } from '../../manifests/json';

/** A Go `string` field: the value, or `""` when absent or not a string. @internal */
export function goString(value: unknown): string {
  return asString(value) ?? '';
}

/**
 * A Go `int` field: the value, 0 when absent, undefined when it is no integer (the webhook could
 * not decode the object, so no verdict of a check depends on it).
 * @internal
 */
export function goInt(value: unknown): number | undefined {
  if (value === undefined || value === null) return 0;
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

/** A Go pointer or slice field that is set: present and not `null`. @internal */
export function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}
